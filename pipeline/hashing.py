"""Content hashes for cache keys.

An exhibit's key covers its own source *and every project module it imports*,
found by reading import statements (ast) transitively. Hashing only the
scene file gives stale exhibits when a shared helper changes; hashing the
closure re-renders exactly what depends on the change.
"""

from __future__ import annotations

import ast
import hashlib
import json
from functools import lru_cache
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("models", "scenes", "figures", "pipeline")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_hash(path: Path) -> str:
    return sha256(path.read_bytes())


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


def _read_imports(path: Path) -> set[str]:
    """Dotted names a file imports (absolute and relative, resolved)."""
    tree = ast.parse(path.read_bytes(), filename=str(path))
    rel = path.relative_to(ROOT).with_suffix("")
    package = list(rel.parts[:-1])
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            names.add(mod)
            # "from models import units" imports the submodule models.units
            names.update(f"{mod}.{a.name}" for a in node.names)
    return names


def closure(module: str) -> list[Path]:
    """The project files `module` depends on, itself included, sorted."""
    start = module_path(module)
    if start is None:
        raise ModuleNotFoundError(f"{module!r} is not a project module")
    seen: set[Path] = set()
    todo = [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        # a package's __init__ runs on import of any submodule
        for parent in path.relative_to(ROOT).parents:
            init = ROOT / parent / "__init__.py"
            if parent != Path(".") and init.is_file():
                todo.append(init)
        for name in _imports(path):
            dep = module_path(name)
            if dep is not None:
                todo.append(dep)
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
