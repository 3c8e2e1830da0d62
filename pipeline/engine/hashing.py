"""Content hashes for cache keys.

An exhibit's key covers its own source *and every project module it imports*,
found by reading import statements transitively. Hashing only the
scene file gives stale exhibits when a shared helper changes; hashing the
closure re-renders exactly what depends on the change.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from pipeline.engine.atomic import sha256

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("models", "scenes", "figures", "pipeline", "design")


_FILE_HASHES: dict[tuple, str] = {}


def file_hash(path: Path) -> str:
    """sha256 of a file, memoised on its size and mtime: a build hashes each source once."""
    st = Path(path).stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _FILE_HASHES:
        _FILE_HASHES[key] = sha256(Path(path).read_bytes())
    return _FILE_HASHES[key]


def digest(obj) -> str:
    """Hash of a JSON-able object, independent of dict order."""
    return sha256(json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str).encode())


def module_path(name: str) -> Path | None:
    """The project file for a dotted module name, or None if not ours."""
    if name.split(".")[0] not in PACKAGES:
        return None
    base = ROOT / name.replace(".", "/")
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


_IMPORTS: dict[tuple, frozenset[str]] = {}


def _imports(path: Path) -> frozenset[str]:
    """Dotted names a file imports, memoised on the file's size and mtime."""
    st = path.stat()
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _IMPORTS:
        _IMPORTS[key] = frozenset(_read_imports(path))
    return _IMPORTS[key]


# Import statements found by pattern, not by parsing: ast.parse of every
# source on every build cost more than the rest of a no-op build. A pattern
# can only over-match (an import in a docstring), which adds a dependency and
# never hides one.
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n#]+)", re.M)


def _names(clause: str) -> list[str]:
    """'a as b, c' or '(a,\n c)' -> ['a', 'c']."""
    clause = clause.strip().strip("()").replace("\\", " ")
    return [part.split()[0] for part in clause.replace("\n", ",").split(",") if part.strip()]


def _read_imports(path: Path) -> set[str]:
    """Dotted names a file imports (absolute and relative, resolved)."""
    text = path.read_text(encoding="utf-8")
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names: set[str] = set()
    for m in _IMPORT.finditer(text):
        names.update(_names(m.group(1)))
    for m in _FROM.finditer(text):
        dots, module, clause = m.groups()
        if dots:
            base = package[: len(package) - len(dots) + 1]
            module = ".".join(base + ([module] if module else []))
        names.add(module)
        # "from models import units" imports the submodule models.units
        names.update(f"{module}.{n}" for n in _names(clause))
    return names


_CLOSURES: dict[str, tuple[tuple, list[Path]]] = {}


def closure(module: str) -> list[Path]:
    """The project files `module` depends on, itself included, sorted; memoised while none of them
    changed (a build asks for the same few closures hundreds of times: once per task)."""
    memo = _CLOSURES.get(module)
    if memo is not None and memo[0] == _stamps(memo[1]):
        return memo[1]
    files = _walk_closure(module)
    _CLOSURES[module] = (_stamps(files), files)
    return files


def _stamps(files: list[Path]) -> tuple:
    """Size and mtime of each file: a closure is recomputed once one of its files is edited (an edit
    that adds an import changes the file, so the new dependency is found)."""
    out = []
    for p in files:
        try:
            st = p.stat()
        except FileNotFoundError:
            return ()
        out.append((st.st_mtime_ns, st.st_size))
    return tuple(out)


def _walk_closure(module: str) -> list[Path]:
    start = module_path(module)
    if start is None:
        raise ModuleNotFoundError(f"{module!r} is not a project module")
    seen: set[Path] = set()
    unvisited = [start]
    while unvisited:
        path = unvisited.pop()
        if path in seen:
            continue
        seen.add(path)
        # a package's __init__ runs on import of any submodule
        for parent in path.relative_to(ROOT).parents:
            init = ROOT / parent / "__init__.py"
            if parent != Path(".") and init.is_file():
                unvisited.append(init)
        for name in _imports(path):
            dep = module_path(name)
            if dep is not None:
                unvisited.append(dep)
    return sorted(seen)


def source_hashes(module: str) -> dict[str, str]:
    """{relative path: sha256} for a module's import closure."""
    return {str(p.relative_to(ROOT)): file_hash(p) for p in closure(module)}


def files_hashes(paths) -> dict[str, str]:
    return {str(p.relative_to(ROOT)): file_hash(p) for p in sorted(paths)}


@lru_cache(maxsize=None)
def versions(*dists: str) -> dict[str, str]:
    """Installed versions of the libraries whose output we cache."""
    out = {}
    for d in dists:
        try:
            out[d] = metadata.version(d)
        except metadata.PackageNotFoundError:
            out[d] = "absent"
    return out
