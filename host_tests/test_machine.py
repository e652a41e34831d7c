"""The fake machine (testbed/hostboard/machine.py) under MicroPython: its Pin and SPI are the
host's stand-ins (fakebus) with the port's API and clocks. The port models themselves are
checked with the board files (test_boards.py, test_wake.py)."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_fake_machine_pins_and_spi(micropython, hostboard):
    out = micropython.run_tests(MP / "mp_machine.py", heapsize="64k", paths=(hostboard,))
    for name in (
        "test_pin_and_spi_are_the_host_stand_ins",
        "test_an_output_is_recorded_under_its_id_from_when_it_becomes_one",
        "test_init_with_a_value_drives_an_output",
        "test_an_input_reads_what_the_script_set_else_its_pull",
        "test_spi_records_the_ports_clock_before_its_bytes",
        "test_pins_and_buses_record_on_the_board_they_were_made_on",
    ):
        assert "PASS " + name in out, out
