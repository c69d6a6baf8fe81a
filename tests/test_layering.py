"""The shape of the package: the core imports nothing outward, and nothing imports in a cycle.

Every ``import`` statement counts, at module level or inside a function (a lazy import
hides a cycle from Python, not from the design). Imports under ``if TYPE_CHECKING:``
count too, and so does a module named by a string (``"toepen.bots.expert"``, for
``importlib.import_module`` or a registry to load later): it is an edge the ``import``
statements do not show, so it is one of the module's imports here, and an import by a
name the source does not spell out (``import_module(name)``) is refused outright.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "toepen"

CORE = ("cards", "rules", "engine", "view", "record", "narration", "seeds", "tally",
        "settle")
"""The pure core: no I/O, no bots, no clients."""
OUTER = ("bots", "match", "server", "tui", "cli", "tools", "rl", "i18n")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {
    module_name(p): p
    for p in PACKAGE.rglob("*.py")
    if "migrations" not in p.parts and "__pycache__" not in p.parts
}


DYNAMIC = {"import_module", "__import__", "find_spec", "import_fresh_module"}
"""The calls that import a module by a name computed at run time."""
LOGGER = "getLogger"
"""``logging.getLogger("toepen.server")`` names a logger, not a module."""


def _called(node: ast.Call) -> str:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def string_imports(tree: ast.AST) -> tuple[list[str], list[str]]:
    """The toepen modules a source names in strings, and its dynamic imports whose name
    is not a string in the source (``import_module(name)``), as ``line: call``."""
    named: list[str] = []
    unseen: list[str] = []
    loggers = {id(n.args[0]) for n in ast.walk(tree) if isinstance(n, ast.Call)
               and _called(n) == LOGGER and n.args}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if id(node) not in loggers and (text == "toepen" or text.startswith("toepen.")):
                t = text
                while t and t not in MODULES:
                    t = t.rpartition(".")[0]
                if t and t.count(".") == text.count("."):  # names a module, all of it
                    named.append(t)
        elif isinstance(node, ast.Call) and _called(node) in DYNAMIC:
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                unseen.append(f"{node.lineno}: {_called(node)}")
    return named, unseen


def imports(name: str, source: str | None = None) -> set[str]:
    """The toepen modules that module ``name`` imports (from ``source``, else its file)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    named, _ = string_imports(tree)
    found.update(t for t in named if t != name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            subs = [f"{stem}.{a.name}" for a in node.names if f"{stem}.{a.name}" in MODULES]
            # names that are not submodules come from the module ``stem`` itself
            targets = subs + ([stem] if len(subs) < len(node.names) else [])
        else:
            continue
        for t in targets:
            while t and t not in MODULES:  # the longest known module that t names
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


GRAPH = {name: imports(name) for name in MODULES}


def top(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_real_imports() -> None:
    assert "toepen.engine" in MODULES and "toepen.view" in MODULES
    assert any(top(m) == "engine" for m in GRAPH["toepen.view"])
    assert any(top(m) == "bots" for m in GRAPH["toepen.server"] | set().union(
        *(GRAPH[m] for m in MODULES if m.startswith("toepen.server.")))
    )


def test_a_module_named_by_a_string_is_an_import() -> None:
    # the registry as it was: bot modules named by strings and imported by importlib
    registry = (
        "import importlib\n"
        "BUILTIN = (BotSpec('expert', 'toepen.bots.expert', 3, 'heuristic'),)\n"
        "def load(spec):\n"
        "    importlib.import_module(spec.module)\n"
    )
    assert "toepen.bots.expert" in imports("toepen.bots.base", registry)
    # ... with the bot registering itself there (``from .base import register_bot``): a cycle
    old = {**GRAPH, "toepen.bots.base": imports("toepen.bots.base", registry),
           "toepen.bots.expert": imports("toepen.bots.expert", "from .base import register_bot\n")}
    assert ["toepen.bots.base", "toepen.bots.expert"] in cycles(old)
    assert string_imports(ast.parse(registry))[1] == ["4: import_module"]
    assert "toepen.bots.pimc" in imports(
        "toepen.bots.base", "__import__('toepen.bots.pimc')\n")
    _, unseen = string_imports(ast.parse("import importlib\nimportlib.import_module(name)\n"))
    assert unseen == ["2: import_module"]
    # a logger's name and words that only begin like a module are not imports
    assert imports("toepen.bots.base", "import logging\n"
                   "log = logging.getLogger('toepen.server')\nX = 'toepen.nothing'\n") == set()


def test_no_import_by_a_name_the_source_does_not_show() -> None:
    offences = {name: unseen for name, path in MODULES.items()
                if (unseen := string_imports(ast.parse(path.read_text(encoding="utf-8")))[1])}
    assert not offences, offences


@pytest.mark.parametrize("name", sorted(m for m in MODULES if top(m) in CORE))
def test_core_modules_import_nothing_outward(name: str) -> None:
    outward = sorted(m for m in GRAPH[name] if top(m) not in CORE)
    assert not outward, f"{name} imports {outward}"


def test_no_module_import_cycle() -> None:
    assert cycles(GRAPH) == []


def test_no_package_import_cycle() -> None:
    packages: dict[str, set[str]] = {}
    for name, deps in GRAPH.items():
        if name == "toepen":  # the package's front door re-exports the core
            continue
        packages.setdefault(top(name), set()).update(
            top(d) for d in deps if d != "toepen" and top(d) != top(name)
        )
    assert cycles(packages) == []


def test_no_module_imports_another_modules_private_names() -> None:
    offences = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        offences.append(f"{name}: from {'.' * node.level}{node.module} "
                                        f"import {a.name}")
    assert not offences, offences


# The server in wings: each part of ``toepen serve`` in a package named for what it is, and
# which wing may read which. The base (``protocol``: the messages, errors and limits every
# wing speaks; ``names``; ``config``) reads no wing; the entry (the package itself, ``app``,
# ``command``, ``__main__``) puts the wings together and nothing imports it back.

SERVER = "toepen.server"
SERVER_BASE = ("protocol", "names", "config")
SERVER_ENTRY = ("", "__main__", "app", "command")
WINGS: dict[str, frozenset[str]] = {
    "db": frozenset(),                           # the tables on disk, group commit
    "tables": frozenset({"db"}),                 # a table, the lobby, the master, the bots
    "cluster": frozenset({"tables", "db"}),      # many processes: leases, relay
    "socket": frozenset({"tables"}),             # one client's WebSocket
    "site": frozenset({"tables", "db"}),         # accounts, clubs, play now, presence, sheets
    "http": frozenset({"tables", "site", "cluster"}),  # one module per resource, the door
}
"""Each wing and the other wings it may import (the base it may always import)."""
CLUSTER_READERS = {f"{SERVER}.app", f"{SERVER}.http.metrics"}
"""The modules outside the cluster wing that may import it: the start-up, which builds it,
and the metrics, which report it. The tables see it through their seam only."""
TABLES_DOORS = {f"{SERVER}.tables.seam", f"{SERVER}.tables.table"}
"""The modules of the tables wing that the cluster may import: the seam (``Seam``, which
the cluster implements, and ``Host``, what it may ask of this process's tables) and the
table, the data both speak of. Never the lobby, the master, the scheduler or play again:
no call back from the cluster into their members."""


def server_part(name: str) -> str:
    """The wing of a server module, ``base`` or ``entry``, or ``?`` (in no wing)."""
    rest = name[len(SERVER) + 1:] if name != SERVER else ""
    head = rest.partition(".")[0]
    if head in WINGS:
        return head
    if "." not in rest and rest in SERVER_BASE:
        return "base"
    if "." not in rest and rest in SERVER_ENTRY:
        return "entry"
    return "?"


SERVER_MODULES = sorted(m for m in MODULES if m == SERVER or m.startswith(SERVER + "."))


def wing_offences(graph: dict[str, set[str]]) -> list[str]:
    """Every import between server modules that the wings do not allow."""
    out = []
    for name in sorted(n for n in graph if n == SERVER or n.startswith(SERVER + ".")):
        a = server_part(name)
        for dep in sorted(graph.get(name, ())):
            if not (dep == SERVER or dep.startswith(SERVER + ".")):
                continue
            b = server_part(dep)
            if "?" in (a, b):
                out.append(f"{name} -> {dep}: {name if a == '?' else dep} is in no wing")
            elif a == b or a == "entry":
                continue
            elif b == "entry":
                out.append(f"{name} -> {dep}: nothing imports the entry back")
            elif a == "base" and b != "base":
                out.append(f"{name} -> {dep}: the base imports no wing")
            elif b != "base" and b not in WINGS[a]:
                out.append(f"{name} -> {dep}: {a} may not import {b}")
            elif b == "cluster" and name not in CLUSTER_READERS:
                out.append(f"{name} -> {dep}: only the start-up and the metrics read the cluster")
            elif a == "cluster" and b == "tables" and dep not in TABLES_DOORS:
                out.append(f"{name} -> {dep}: the cluster reaches the tables through their "
                           "seam only")
    return out


def test_every_server_module_is_in_a_wing() -> None:
    loose = [m for m in SERVER_MODULES if server_part(m) == "?"]
    assert not loose, f"server modules in no wing: {loose}"


def test_each_wing_has_its_purpose_in_its_docstring() -> None:
    for wing in WINGS:
        path = PACKAGE / "server" / wing / "__init__.py"
        assert path.is_file(), f"server/{wing}/ is not a package"
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert doc and doc.startswith(f"The {wing} wing"), f"server/{wing}/__init__.py: {doc!r}"


def test_the_wings_import_each_other_only_as_allowed() -> None:
    assert wing_offences(GRAPH) == []


def test_the_wings_allowed_form_no_cycle() -> None:
    assert cycles({w: set(deps) for w, deps in WINGS.items()}) == []


def test_the_wing_rule_catches_what_it_names() -> None:
    # the tables reading the cluster, the site reading an HTTP module, the database a table,
    # the base a wing, a module outside the wings: each an offence
    m = f"{SERVER}.tables.master"
    fake = {
        m: {f"{SERVER}.cluster.core"},
        f"{SERVER}.site.playnow": {f"{SERVER}.http.routes"},
        f"{SERVER}.db.store": {f"{SERVER}.tables.table"},
        f"{SERVER}.protocol": {f"{SERVER}.tables.table"},
        f"{SERVER}.http.pwa": {f"{SERVER}.cluster.core", f"{SERVER}.app"},
        f"{SERVER}.socket.connection": {f"{SERVER}.tables.lobby", f"{SERVER}.protocol"},
        f"{SERVER}.cluster.core": {f"{SERVER}.tables.social", f"{SERVER}.tables.seam",
                                   f"{SERVER}.tables.table", f"{SERVER}.db.store"},
    }
    found = wing_offences(fake)
    assert f"{m} -> {SERVER}.cluster.core: tables may not import cluster" in found
    assert f"{SERVER}.site.playnow -> {SERVER}.http.routes: site may not import http" in found
    assert f"{SERVER}.db.store -> {SERVER}.tables.table: db may not import tables" in found
    assert f"{SERVER}.protocol -> {SERVER}.tables.table: the base imports no wing" in found
    assert (f"{SERVER}.http.pwa -> {SERVER}.cluster.core: only the start-up and the metrics "
            "read the cluster") in found
    assert f"{SERVER}.http.pwa -> {SERVER}.app: nothing imports the entry back" in found
    assert (f"{SERVER}.cluster.core -> {SERVER}.tables.social: the cluster reaches the "
            "tables through their seam only") in found
    assert len(found) == 7  # the socket reading the tables and the base is allowed, and
    # the cluster reading the seam, the table and the database
    assert server_part(f"{SERVER}.lobby") == "?"  # the flat layout: a module in no wing


def test_no_module_reads_another_modules_private_attributes() -> None:
    """No module reaches into the private attributes of another module's objects.

    The rule, over every module of ``src/toepen`` (ast, no import): an attribute access
    ``obj._name`` (read, assigned or deleted; ``_name`` starts with one underscore and is
    no dunder), or ``getattr``/``setattr``/``hasattr``/``delattr`` with ``"_name"`` as a
    string, is allowed only where

    - ``obj`` is the bare name ``self`` or ``cls``: an object's own fields, whichever class
      of its bases set them (a subclass is the class's own business); or
    - ``_name`` is defined by a class of the same module: a method or attribute of its
      body, a name in its ``__slots__``, or a field it assigns as ``self._name`` or
      ``cls._name``, so a clone may fill its twin's fields and a module may read the
      fields of its own helper class; or
    - ``_name`` is one of Python's documented public names that start with an underscore
      (a named tuple's ``_replace``, ``_asdict``, ``_fields``, ``_make`` and
      ``_field_defaults``; ``os._exit``); or
    - it is one of ``reached_in``: a library's internal that the project reaches into under
      its rule (the tested versions pinned and checked at start-up, a fallback elsewhere),
      each named with its module and reason.

    Anything else reads another module's internals: ``game._phase`` in a module whose
    classes define no ``_phase`` (the score sheet read 25 fields of ``Game`` so, in
    70 places, until it drove the engine through its public hook,
    :class:`toepen.engine.unseen.UnseenGame`), and equally a library's
    (``SomeLibraryClass._helper``): the project's rule that another library's internals
    are not an API is checked here for attributes, as the test above checks it for
    imported names. Names that are not attributes
    (``from x import _y``) are that test's; a module's own private functions and globals
    are its own.
    """
    accessors = {"getattr", "setattr", "hasattr", "delattr"}
    reached_in = {
        # typer words an option's bounds "x>=0.0"; --help says "at least 0" (issue 25) in the
        # typer versions tested (cli.TYPER_TESTED, checked at start-up), typer's own elsewhere
        ("toepen.cli", "_get_number_range_help_str"),
    }
    public_underscored = {"_replace", "_asdict", "_fields", "_make", "_field_defaults", "_exit"}

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__")

    def defined(tree: ast.AST) -> set[str]:
        names: set[str] = set()
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for node in ast.walk(cls):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(node.name)
                elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                      and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                    names.add(node.attr)
            for stmt in cls.body:
                targets = (stmt.targets if isinstance(stmt, ast.Assign) else
                           [stmt.target] if isinstance(stmt, ast.AnnAssign) else [])
                for t in (t for t in targets if isinstance(t, ast.Name)):
                    names.add(t.id)
                    if t.id == "__slots__" and stmt.value is not None:
                        names.update(c.value for c in ast.walk(stmt.value)
                                     if isinstance(c, ast.Constant) and isinstance(c.value, str))
        return names

    offences = []
    for name, path in sorted(MODULES.items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = defined(tree) | public_underscored
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                obj, attr = node.value, node.attr
            elif (isinstance(node, ast.Call) and _called(node) in accessors
                  and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                  and isinstance(node.args[1].value, str)):
                obj, attr = node.args[0], node.args[1].value
            else:
                continue
            if not private(attr) or attr in own or (name, attr) in reached_in:
                continue
            if isinstance(obj, ast.Name) and obj.id in ("self", "cls"):
                continue
            offences.append(f"{name}:{node.lineno}: {ast.unparse(obj)}.{attr}")
    assert not offences, f"{len(offences)} private attributes of others:\n" + "\n".join(offences)


# One seam for the cluster: the tables call where they live (tables/seam.py: a lone
# process's LocalSeam, or the cluster's seam, chosen at start-up), never ask whether there
# is a cluster; the cluster reaches the tables only through the seam's Host (above:
# TABLES_DOORS).

SEAM_CALLERS = ("tables", "socket", "site", "http")
"""The wings that play tables, through the seam."""
SEAM_CHOOSERS = {f"{SERVER}.app", f"{SERVER}.http.metrics"}
"""The server modules outside the cluster wing that may ask whether there is a cluster:
the start-up, which chooses the seam, and the metrics, which report the cluster's figures."""


def cluster_conditions(source: str) -> list[str]:
    """Every condition of ``source`` that names a cluster (``if self.cluster is None``,
    ``x if cluster else y``, ``cluster is not None and ...``, a comprehension's ``if``,
    a ``while``, an ``assert``): a name or attribute with ``cluster`` in it, as
    ``line: condition``."""

    def names_cluster(node: ast.AST) -> bool:
        return any((isinstance(n, ast.Name) and "cluster" in n.id.lower())
                   or (isinstance(n, ast.Attribute) and "cluster" in n.attr.lower())
                   for n in ast.walk(node))

    tests: list[ast.expr] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            tests.append(node.test)
        elif isinstance(node, ast.comprehension):
            tests.extend(node.ifs)
        elif isinstance(node, ast.BoolOp):
            tests.extend(node.values)
    return sorted({f"{t.lineno}: {ast.unparse(t)}" for t in tests if names_cluster(t)})


def test_the_cluster_rule_catches_what_it_names() -> None:
    old = (
        "def act(self, table):\n"
        "    cluster = self.cluster\n"
        "    if cluster is not None and not cluster.owns(table.id):\n"
        "        return\n"
        "    epoch = None if cluster is None else cluster.fence(table.id)\n"
        "    owns = self.lobby.cluster.owns if self.lobby.cluster is not None else None\n"
        "    self.lobby.cluster is not None and self.lobby.cluster.created(table)\n"
        "    while self.cluster:\n"
        "        pass\n"
    )
    found = cluster_conditions(old)
    assert {int(f.split(":")[0]) for f in found} == {3, 5, 6, 7, 8}, found
    seam = (
        "def act(self, table):\n"
        "    if not self.seam.owns(table.id):\n"
        "        return\n"
        "    epoch = self.seam.fence(table.id)  # in a cluster: the lease's\n"
        "    log.info('not a cluster')\n"
    )
    assert cluster_conditions(seam) == []


def test_the_tables_ask_their_seam_never_whether_there_is_a_cluster() -> None:
    """No module of the wings that play tables (tables, socket, site, http; but the
    metrics, which report the cluster) has a condition that names a cluster: the master,
    the lobby, the scheduler, play again, the socket and play now call
    :class:`toepen.server.tables.seam.Seam` the same way for one process or many. (The
    base's ``names`` speaks of grapheme clusters, and the start-up chooses the seam.)"""
    offences = {
        name: found for name in SERVER_MODULES
        if server_part(name) in SEAM_CALLERS and name not in SEAM_CHOOSERS
        and (found := cluster_conditions(MODULES[name].read_text(encoding="utf-8")))}
    assert not offences, offences
    for name in ("master", "lobby", "scheduler", "social"):  # the four the seam is for
        assert f"{SERVER}.tables.{name}" in MODULES


def test_the_tables_never_import_the_cluster_and_it_reads_only_their_seam() -> None:
    tables = [m for m in SERVER_MODULES if server_part(m) == "tables"]
    assert not [(m, d) for m in tables for d in GRAPH[m] if server_part(d) == "cluster"]
    reached = {d for m in SERVER_MODULES if server_part(m) == "cluster"
               for d in GRAPH[m] if server_part(d) == "tables"}
    assert reached <= TABLES_DOORS, sorted(reached - TABLES_DOORS)
    assert f"{SERVER}.tables.seam" in reached  # the cluster implements the seam's side


TEST_SWITCHES = ("TOEPEN_FAILPOINT", "TOEPEN_TEST")
"""Environment variables a test would set to change what the product does: none is read
under src/ (a fault for a test is installed by the test's harness: tests/faults.py)."""


def switches_named(source: str) -> list[str]:
    """Where ``source`` names an environment variable of :data:`TEST_SWITCHES`, as
    ``line: name``: any string of the source that begins so (``os.environ.get(...)``,
    ``os.getenv(...)``, ``environ[...]``, a default of an option, an f-string's part)."""
    return [f"{node.lineno}: {node.value}" for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value.startswith(TEST_SWITCHES)]


def test_the_switch_rule_catches_what_it_names() -> None:
    assert switches_named('import os\nFP = os.environ.get("TOEPEN_FAILPOINT", "")\n') == [
        "2: TOEPEN_FAILPOINT"]
    assert switches_named('import os\nf = os.getenv("TOEPEN_FAILPOINT_FILE")\n'
                         'g = os.environ[f"TOEPEN_TEST_{1}"]\n') == [
        "2: TOEPEN_FAILPOINT_FILE", "3: TOEPEN_TEST_"]
    assert switches_named('import os\nh = os.environ.get("TOEPEN_DB")\n') == []


def test_no_module_reads_a_test_switch_from_the_environment() -> None:
    found = {name: hits for name, path in MODULES.items()
             if (hits := switches_named(path.read_text()))}
    assert not found, f"test switches read in production code: {found}"
