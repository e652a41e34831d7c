"""The firmware's folders are its layers (tools/layout.py): drivers, store, game, screens, then
the boot and the loop. A module imports only from its own layer or a lower one, and a board
holds the modules side by side, so no two folders hold the same name."""

import ast

import layout


def imported(path):
    """Every module name `path` imports, at its top or inside a function."""
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module)
    return names


def test_module_names_are_unique_across_the_layers():
    names = [p.name for p in layout.sources()]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def test_every_layer_holds_modules():
    for folder in layout.FOLDERS:
        assert list(folder.glob("*.py")), folder


def test_no_module_imports_from_a_higher_layer():
    ours = {p.stem: layout.layer(p) for p in layout.sources()}
    upward = []
    for path in layout.sources():
        for name in imported(path):
            if ours.get(name, -1) > layout.layer(path):
                upward.append(
                    "%s (%s) imports %s (%s)"
                    % (
                        path.stem,
                        layout.LAYERS[layout.layer(path)],
                        name,
                        layout.LAYERS[ours[name]],
                    )
                )
    assert not upward, upward
