"""No import circles: the project reads one way. Every import of engine/, render/, bot/ and
bench/ is followed, at module level or inside a function alike (an import moved into a
function to dodge a circle is still a circle); only imports for type checkers
(`if TYPE_CHECKING:`) are left out, since they run nothing.

A subpackage counts as one unit (`bot.service`, `engine.<game>`), a module directly in a
package as its own (`bot.texts`, `engine.api`), so a circle between two packages fails even
when no two modules form one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "render", "bot", "bench")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit(module: str) -> str:
    """A subpackage is one unit; a package's own modules are units of their own."""
    return ".".join(module.split(".")[:2])


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def imported(path: Path, module: str, known: set[str]) -> Iterator[str]:
    """The project modules `module` imports, wherever in the file, except for type checkers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
            # `from pkg import mod` imports the module; `from pkg import name`, the package itself.
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for name in names:
            found = longest_known(name, known)
            if found is not None:
                yield found


def longest_known(name: str, known: set[str]) -> str | None:
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in known:
            return ".".join(parts[:end])
    return None


@cache
def graph() -> dict[str, set[str]]:
    modules = all_modules()
    known = set(modules)
    edges: dict[str, set[str]] = {}
    for module, path in modules.items():
        for target in imported(path, module, known):
            if unit(module) != unit(target):
                edges.setdefault(unit(module), set()).add(unit(target))
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one unit (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(set(edges) | {t for targets in edges.values() for t in targets}):
        if node not in index:
            visit(node)
    return found


def test_no_package_imports_its_way_back_to_itself() -> None:
    edges = graph()
    assert len(edges) > 30  # the whole project was read
    assert circles(edges) == []


def test_the_layers_point_one_way() -> None:
    edges = graph()
    engine = {u for u in edges if u.split(".")[0] == "engine"}
    render = {u for u in edges if u.split(".")[0] == "render"}
    assert all(t.split(".")[0] == "engine" for u in engine for t in edges[u])  # the engine imports no other layer
    assert all(t.split(".")[0] in ("engine", "render") for u in render for t in edges[u])  # render: engine only


def test_the_check_finds_a_circle_and_ignores_imports_for_type_checkers() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    spec = ROOT / "bot" / "commands" / "spec.py"
    assert "TYPE_CHECKING" in spec.read_text(encoding="utf-8")
    assert "bot.service" not in set(imported(spec, "bot.commands.spec", set(all_modules())))
