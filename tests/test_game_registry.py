"""Games register through the ``daimyo.games`` entry point group, daimyo's own five included; a
game of another package is found the same way and works where a built-in one does."""

from __future__ import annotations

import os
import sys
import textwrap
from importlib.metadata import entry_points

import pytest

import builder
from builder.errors import UsageError
from builder.systems import BUILT_IN_IDS, ENTRY_POINTS, get, ids, refresh, register, unregister


def test_the_built_in_games_are_registered_by_entry_points():
    """The installed metadata names each of daimyo's games: the registry reads no other list."""
    found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINTS)}
    for sid in BUILT_IN_IDS:
        assert found[sid] == f"builder.games.{sid}.system:SYSTEM"
        assert get(sid).id == sid
    assert ids()[: len(BUILT_IN_IDS)] == BUILT_IN_IDS


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A package installed beside daimyo (a folder on sys.path with its dist-info), whose
    metadata registers the given games; the registry reads it again afterwards."""

    def install(module_text: str, entry_lines: str):
        (tmp_path / "othergames.py").write_text(textwrap.dedent(module_text))
        info = tmp_path / "othergames-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: othergames\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[{ENTRY_POINTS}]\n{entry_lines}\n")
        monkeypatch.syspath_prepend(str(tmp_path))
        refresh()

    yield install
    sys.modules.pop("othergames", None)
    monkeypatch.undo()
    refresh()


TOY = """
    import sys
    from pathlib import Path
    sys.path.insert(0, {tests!r})
    import toygame

    class Packaged(toygame.ToyGame):
        id = "packaged"
        name = "Packaged toy"
        aliases = ("boxed toy",)

    SYSTEM = Packaged()
    """


def test_a_game_of_another_package_is_found_by_its_entry_point(installed, tmp_path, cli):
    from conftest import ROOT

    installed(TOY.format(tests=str(ROOT / "tests")), "packaged = othergames:SYSTEM")
    assert ids()[-1] == "packaged" and ids()[: len(BUILT_IN_IDS)] == BUILT_IN_IDS
    assert builder.find_system("boxed toy").id == "packaged"
    deck = tmp_path / "deck.yaml"
    r = cli("new", "boxed toy", "-o", deck)
    assert r.code == 0 and "error toy.deck-size: deck has 0 cards but must have 4" in r.stdout
    assert "system: packaged" in deck.read_text()
    r = cli("catalog", "systems")
    assert r.code == 0 and "packaged" in r.stdout


def test_a_registered_game_cannot_take_an_entry_points_id():
    class Impostor:
        id = "kensei"

    with pytest.raises(UsageError, match="a game system 'kensei' is registered already"):
        register(Impostor())
    unregister("kensei")  # an entry point's game stays
    assert get("kensei").name == "Kensei"


def test_an_entry_point_whose_game_has_another_id_is_refused(installed):
    installed("class G:\n    id = 'other'\n\nSYSTEM = G()\n", "wrongname = othergames:SYSTEM")
    with pytest.raises(UsageError, match=r"the entry point .wrongname. of daimyo\.games") as exc:
        get("wrongname")
    assert "whose id is 'other' (the entry point's name is the game's id)" in str(exc.value)


def test_an_entry_point_may_name_a_factory(installed):
    installed(
        "class G:\n    id = 'made'\n    name = 'Made'\n    aliases = ()\n\ndef make():\n    return G()\n",
        "made = othergames:make",
    )
    assert get("made").name == "Made"


COMMANDS_TOY = """
    import sys
    sys.path.insert(0, {tests!r})
    import toygame

    class Tally:
        help = "Toy helpers."

        def register(self, group, cli):
            import typer

            @group.command("tally")
            def tally(rule: list[str] = typer.Option([], "--rule", "-r", help="house rule ID=VALUE")):
                '''Print the house rules given.'''
                print(sorted(cli.parse_rule_options(rule).items()))

    class Commanded(toygame.ToyGame):
        id = "commanded"
        name = "Commanded toy"
        aliases = ()
        commands = Tally()

    SYSTEM = Commanded()
    """


def test_a_game_brings_its_own_commands(installed, cli):
    """A game's ``commands`` part gets a group named by its id, found through the registry
    (the command line imports no game's package); a game without the part has no group."""
    from builder.commands.app import app, app_for

    from conftest import ROOT

    installed(COMMANDS_TOY.format(tests=str(ROOT / "tests")), "commanded = othergames:SYSTEM")
    try:
        one = app_for(["commanded", "tally"])
        assert one is not app and [g.name for g in one.registered_groups] == ["commanded"]
        r = cli("commanded", "tally", "-r", "size=3", "-r", "mode=fast")
        assert r.code == 0 and r.stdout == "[('mode', 'fast'), ('size', 3)]\n"
        r = cli("commanded", "tally", "-r", "size")
        assert r.code == 2 and "house rule 'size' is not ID=VALUE" in r.stderr
        r = cli("--help")
        listed = [line.split() for line in r.stdout.splitlines()]
        assert ["commanded", "Toy", "helpers."] in listed and ["satsuma", "Satsuma", "Rebellion", "helpers."] in listed
        r = cli("kensei", "tally")  # a game without commands: no such command
        assert r.code == 2 and "no such command 'kensei'" in r.stderr
    finally:
        app.registered_groups[:] = [g for g in app.registered_groups if g.name != "commanded"]


def test_a_game_without_its_own_editing_part_refuses_add_and_remove_by_name():
    """The default ``editing`` part: nothing to add or remove, no cards held, and an option of
    another game refused naming the option and the game it belongs to."""
    from builder.errors import EditRefused
    from builder.systems.base import GameSystem

    class Plain(GameSystem):
        id = "plain"

    gs = Plain()
    with pytest.raises(EditRefused, match="'add' is not supported for plain"):
        gs.editing.add({}, None, "anything")
    with pytest.raises(EditRefused, match="'remove' is not supported for plain"):
        gs.editing.remove({}, None, "anything")
    assert gs.editing.held({"cards": {"a": 1}}, None) == [] and not gs.editing.published({})
    gs.editing.check_options("add", {"count": 2, "models": None})  # count applies; models not given
    with pytest.raises(UsageError, match=r"models\W* applies to kensei troops, not plain cards"):
        gs.editing.check_options("add", {"models": 3})
    with pytest.raises(UsageError, match=r"player\W* applies to senji setups"):
        gs.editing.check_options("remove", {"count": 1, "all": True, "player": "Red"})


@pytest.fixture
def counted_scans(tmp_path, monkeypatch):
    """The registry's metadata reads, counted, with the answers kept in a fresh cache folder."""
    import importlib.metadata

    from builder import systems

    monkeypatch.setenv("DAIMYO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("DAIMYO_NO_CACHE", raising=False)
    reads = []
    real = importlib.metadata.entry_points

    def entry_points(**kw):
        reads.append(kw)
        return real(**kw)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    return systems._scan, reads


def test_two_environments_keep_their_own_answer(counted_scans, tmp_path, monkeypatch):
    """Two virtual environments (or one run from two folders) alternating read the metadata
    once each, instead of replacing each other's kept answer on every command."""
    scan, reads = counted_scans
    other = tmp_path / "other-env"
    other.mkdir()
    here = list(sys.path)
    first = scan()
    monkeypatch.setattr(sys, "path", [str(other), *here])
    assert scan() == first  # nothing registered in the other folder
    monkeypatch.setattr(sys, "path", here)
    assert scan() == first
    monkeypatch.setattr(sys, "path", [str(other), *here])
    assert scan() == first
    assert len(reads) == 2
    assert len(list((tmp_path / "cache").glob("games-*.json"))) == 2


def test_a_package_installed_since_is_read_again(counted_scans, tmp_path, monkeypatch):
    scan, reads = counted_scans
    folder = tmp_path / "site"
    folder.mkdir()
    os.utime(folder, ns=(0, 0))  # an old folder: installing into it changes its time whatever the clock's grain
    monkeypatch.syspath_prepend(str(folder))
    assert "later" not in scan()
    info = folder / "later-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: later\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINTS}]\nlater = later:SYSTEM\n")
    assert scan()["later"] == "later:SYSTEM"
    assert len(reads) == 2


def test_the_kept_answers_are_bounded(counted_scans, tmp_path, monkeypatch):
    """At most ``_KEPT_ANSWERS`` environments' answers stay in the cache folder, the most
    recently written ones; at the bound nothing is removed."""
    from builder import systems

    scan, _ = counted_scans
    here = list(sys.path)
    made = []
    for n in range(systems._KEPT_ANSWERS + 1):
        env = tmp_path / f"env{n}"
        env.mkdir()
        monkeypatch.setattr(sys, "path", [str(env), *here])
        scan()
        made.append(sorted((tmp_path / "cache").glob("games-*.json")))
    assert len(made[systems._KEPT_ANSWERS - 1]) == systems._KEPT_ANSWERS
    assert len(made[-1]) == systems._KEPT_ANSWERS


def test_a_part_named_from_the_games_package_is_its_module_imported_when_first_asked(tmp_path, monkeypatch):
    """``part(".view:Class")`` on a game in a package names the module ``view`` of that package,
    imported when the part is first asked for, as daimyo's own games declare their views."""
    pkg = tmp_path / "pkgame"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "view.py").write_text("class PkView:\n    def __init__(self, game):\n        self.game = game\n")
    (pkg / "system.py").write_text(
        textwrap.dedent(
            """
            from builder.systems.base import GameSystem
            from builder.systems.parts import part

            class PkGame(GameSystem):
                id = "pkgame"
                view = part(".view:PkView")
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    from pkgame.system import PkGame  # type: ignore[import-not-found]

    game = PkGame()
    assert "pkgame.view" not in sys.modules
    assert type(game.view).__module__ == "pkgame.view" and game.view.game is game
    for sid in BUILT_IN_IDS:
        assert type(get(sid).view).__module__ == f"builder.games.{sid}.view"


def test_a_part_named_from_the_package_of_a_game_in_no_package_is_refused_when_declared():
    from builder.systems.base import GameSystem
    from builder.systems.parts import part

    # Python 3.11 wraps an error of __set_name__ in a RuntimeError; later versions raise it as it is
    with pytest.raises((TypeError, RuntimeError)) as refused:
        type("Loose", (GameSystem,), {"__module__": "loose", "view": part(".view:V")})
    error = refused.value.__cause__ or refused.value
    assert isinstance(error, TypeError)
    assert str(error) == (
        "part '.view:V' of Loose: a module named from the game's package needs the game in a package; "
        "name the module in full"
    )
