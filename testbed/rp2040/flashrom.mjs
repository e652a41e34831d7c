// The boot ROM's flash functions, done on rp2040js's flash array (which it never writes).
// SPDX-License-Identifier: MIT
// MicroPython's rp2_flash.c erases and programs through pico-sdk's hardware_flash, which finds
// the boot ROM's functions with rom_func_lookup (RP2040 datasheet 2.8.3: a table of 16-bit
// code, 16-bit address pairs at the ROM address held in the halfword at 0x14). Each function
// used is replaced by `bkpt #n; bx lr`, written over its first instructions: rp2040js calls
// rp2040.onBreak(n) on BKPT and goes on with `bx lr`, so the call returns as the ROM's would.

// pico-sdk's names (src/rp2_common/pico_bootrom/include/pico/bootrom.h); n = index + 1.
const CODES = ['IF', 'EX', 'RE', 'RP', 'FC', 'CX'];
const ERASE = 3;
const PROGRAM = 4;
// Winbond W25Q16JV datasheet (the Pico's flash), 9.6 AC Electrical Characteristics, typical:
// sector (4 KB) erase tSE 45 ms, block (64 KB) erase tBE2 150 ms, page program tPP 0.4 ms.
const SECTOR_ERASE_NS = 45e6;
const BLOCK_ERASE_NS = 150e6;
const PAGE_PROGRAM_NS = 0.4e6;

function romHalf(mcu, address) {
  const word = mcu.bootrom[address >>> 2];
  return address & 2 ? word >>> 16 : word & 0xffff;
}

function setRomHalf(mcu, address, value) {
  const i = address >>> 2;
  const word = mcu.bootrom[i];
  mcu.bootrom[i] = address & 2 ? (word & 0xffff) | (value << 16) : (word & 0xffff0000) | value;
}

/** Replace the ROM's flash functions with BKPT stubs (see above). */
export function patchFlashRom(mcu) {
  const table = romHalf(mcu, 0x14);
  const found = new Set();
  for (let at = table; romHalf(mcu, at); at += 4) {
    const code = romHalf(mcu, at);
    const name = String.fromCharCode(code & 0xff, code >> 8);
    const index = CODES.indexOf(name);
    if (index < 0) continue;
    const entry = romHalf(mcu, at + 2) & ~1;
    setRomHalf(mcu, entry, 0xbe00 | (index + 1)); // bkpt #n
    setRomHalf(mcu, entry + 2, 0x4770); // bx lr
    found.add(name);
  }
  if (found.size !== CODES.length) {
    throw new Error(`boot ROM: flash functions ${CODES.filter((c) => !found.has(c))} not found`);
  }
}

/** Do the ROM call of BKPT `code`; return {kind, offset, size} for an erase or a program,
 * else null. With `timing`, the call takes the flash's typical time on the chip's clock. */
export function flashOp(mcu, code, timing) {
  const [r0, r1, r2] = mcu.core.registers;
  if (code === ERASE) {
    // flash_range_erase(addr, count, block_size, block_cmd): addr is the offset in flash
    mcu.flash.fill(0xff, r0, r0 + r1);
    if (timing) {
      const blocks = r2 === 65536 ? Math.floor(r1 / 65536) : 0;
      const sectors = (r1 - blocks * 65536) / 4096;
      mcu.clock.tick(blocks * BLOCK_ERASE_NS + sectors * SECTOR_ERASE_NS);
    }
    return { kind: 'erase', offset: r0, size: r1 };
  }
  if (code === PROGRAM) {
    // flash_range_program(addr, data, count): NOR flash only clears bits
    for (let i = 0; i < r2; i++) mcu.flash[r0 + i] &= mcu.readUint8(r1 + i);
    if (timing) mcu.clock.tick(Math.ceil(r2 / 256) * PAGE_PROGRAM_NS);
    return { kind: 'program', offset: r0, size: r2 };
  }
  if (code >= 1 && code <= CODES.length) return null; // nothing to model: no XIP cache here
  throw new Error(`BKPT #${code} at 0x${mcu.core.PC.toString(16)}: not a flash stub`);
}
