"""The words of the table (issue #43 item 8), without a browser: prompts that name every kind of move on the board,
variant help texts without codes, French punctuation on every French page, the phases' words, nothing offered to a
spectator that only a seat can use."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.core.registry import load_game
from meeple.core.rng import Rng
from meeple.i18n import translator
from meeple.server.app import ServerConfig
from meeple.server.views import game_view
from meeple.web import create_web_app
from meeple.web.games import companion_for
from meeple.web.render import render_board
from tests.i18n.test_french_typography import french_slips

GAMES = ("citadels", "capitol", "capital_lux_2", "caprice")

SAYS = {
    "citadels": {
        "pick_character": "choose your character",
        "discard_character": "put aside",
        "assassinate": "assassinate",
        "rob": "rob",
        "swap_hands": "swap hands",
        "exchange_cards": "exchange cards",
        "select_card": "put under the deck",
        "confirm_exchange": "confirm",
        "cancel_exchange": "cancel",
        "keep_card": "keep",
        "take_gold": "take 2 gold",
        "draw_cards": "draw cards",
        "take_income": "income",
        "build_district": "build",
        "discard_for_gold": "discard a card for 1 gold",
        "use_smithy": "Smithy",
        "end_turn": "end your turn",
        "destroy_district": "destroy",
        "decline_destroy": "leave them all",
        "recover_district": "take the destroyed district back",
        "decline_recover": "leave it",
    },
    "capitol": {
        "play_card": "play a card",
        "pass": "pass",
        "add_to_bid": "add cards",
        "seal_bid": "seal",
        "place_tile": "zone",
        "draw_card": "draw",
        "place_building": "zone",
        "place_roof": "roof",
        "place_floor": "floor",
    },
    "capital_lux_2": {"keep_card": "keep", "play_to_city": "City", "play_to_capital": "Capital"},
    "caprice": {
        "place": "place",
        "move": "move",
        "skip_move": "move no piece",
        "keep_symbol": "keep",
        "exchange_symbol": "exchange",
        "order_symbol": "order",
    },
}
"""Per game, each kind of move and a word its prompt must hold when that kind is legal (a power's own question in
Capital Lux 2 is the engine's pending decision, said as such)."""
NOT_OFFERED = {"caprice": {"exchange_symbol": "exchange"}, "citadels": {"take_gold": "2 gold", "rob": "rob"}}
"""Words a prompt must not hold when that kind of move is not legal (a drawn symbol that is no third copy)."""


@pytest.mark.parametrize(
    ("game", "players"),
    [("citadels", 3), ("citadels", 6), ("capitol", 3), ("capital_lux_2", 1), ("capital_lux_2", 3), ("caprice", 3)],
)
def test_a_prompt_names_every_kind_of_move_on_the_board(game: str, players: int) -> None:
    """ "Choose a character to rob" beside "take 2 gold": the prompt names them all."""
    web = companion_for(game)
    missing: dict[str, set[str]] = {}
    for seed in (1, 2, 3):
        state = load_game(game, players=players).new_initial_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat = state.current_player()
            view = game_view(state, seat, state.history_messages(seat), translator("en"))
            prompt = web.prompt(view, seat, translator("en")).lower()
            pending = view["observation"].get("pending")
            types = {a["json"]["type"] for a in view["legal_actions"]}
            if not (game == "capital_lux_2" and pending and pending.get("player") == seat):
                for kind in types:
                    if SAYS[game][kind].lower() not in prompt:
                        missing.setdefault(kind, set()).add(prompt)
            for kind, word in NOT_OFFERED.get(game, {}).items():  # nor one that is not on the board
                if types and kind not in types and word in prompt:
                    missing.setdefault(f"not {kind}", set()).add(prompt)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert not missing, {k: sorted(v)[:2] for k, v in missing.items()}


CODE = re.compile(
    r"\bfr1\b|\ben\b(?= \(|\)|$|,)|\((?:FR|IT|CL1|EN)\)|VARIANTE|\bFFG\b|'[a-z_]+'|\b[a-z]+(?:_[a-z0-9]+)+\b"
    r"|\bTrue\b|\bFalse\b|=\w"
)
"""What a variant's help must not read: a deck code, a source tag, a quoted value, a parameter name, a Python bool."""


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_web_app(ServerConfig(db=f"sqlite:///{tmp_path / 'w.db'}", bot_workers=0))) as client:
        yield client


def _smalls(page: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", s)) for s in re.findall(r"<small>(.*?)</small>", page, re.S)]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_variant_help_texts_read_without_codes(web: TestClient, lang: str) -> None:
    lobby = web.get(f"/?lang={lang}").text
    texts = _smalls(lobby)
    for game in GAMES:
        rules = web.get(f"/rules/{game}?lang={lang}").text
        texts += _smalls(rules.split('class="variants"')[1].split("</dl>")[0])
        # the summary's own list of parameters, as the command line types them, is not on the page
        page = html.unescape(re.sub(r"<[^>]+>", " ", rules.split("<main>")[1]))
        assert not re.findall(r"\bfr1\b|\bFFG\b|VARIANTE|\((?:FR|IT|CL1)\)", page), (game, lang)
    assert len(texts) > 20
    coded = [(CODE.findall(t), t[:90]) for t in texts if CODE.search(t)]
    assert not coded, coded[:6]
    words = [t for t in texts if "custom" in t.lower() or "tiles field" in t or "champ tiles" in t]
    assert not words, words


def test_the_lobby_offers_only_what_it_can_complete(web: TestClient) -> None:
    """Capital Lux 2's tiles chosen one by one need a list the form has no field for: not offered."""
    card = web.get("/").text.split('id="game-capital_lux_2"')[1].split("</article>")[0]
    assert 'value="custom"' not in card and 'value="A"' in card


def test_a_spectator_is_offered_nothing_only_a_seat_can_use(web: TestClient) -> None:
    answer = web.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"]}).json()
    table, token = answer["table"], answer["seats"][0]["token"]
    watching = web.get(f"/tables/{table}").text
    assert 'id="alert-toggle"' not in watching and "Tell me when it is my turn" not in watching
    assert 'id="chat-mute"' not in watching and "New link for my seat" not in watching
    seated = web.get(f"/tables/{table}?token={token}").text  # the invite link's cookie, then the seat's page
    assert 'id="alert-toggle"' in seated and 'id="chat-mute"' in seated


def test_each_game_names_its_own_phases_in_french() -> None:
    """Capital Lux 2's draft is not Citadels' "choix des personnages"; Citadels' second phase is not "Tour 1 · tours
    de jeu" (the French rulebook: "appeler les personnages")."""
    fr = translator("fr")
    lux = load_game("capital_lux_2", players=3).new_initial_state(1)
    assert lux.observation(0)["phase"] == "draft"
    said = companion_for("capital_lux_2").round_phase(lux.observation(0), fr)
    assert "composition des mains" in said and "personnages" not in said
    state = load_game("citadels", players=4).new_initial_state(1)
    while state.observation(None)["phase"] == "draft":
        state.apply_action(state.legal_actions()[0])
    said = companion_for("citadels").round_phase(state.observation(None), fr)
    assert said == "Tour 1 · appel des personnages", said


TEXT_ATTRIBUTES = re.compile(r'\s(?:title|aria-label|placeholder)="([^"]*)"')


def _french_text(page: str) -> str:
    """A page's words: its text and the attributes read aloud or shown on hover, without the scripts."""
    page = re.sub(r"<script.*?</script>|<style.*?</style>|<svg.*?</svg>", " ", page, flags=re.S)
    said = " \n ".join(TEXT_ATTRIBUTES.findall(page))
    return html.unescape(re.sub(r"<[^>]+>", "\n", page) + "\n" + said)


def _slips(text: str) -> list[str]:
    return [s for line in text.splitlines() for s in french_slips(line.strip()) if line.strip()]


def _boards(game: str, players: int) -> Iterator[str]:
    state = load_game(game, players=players).new_initial_state(5)
    rng = Rng(5)
    step = 0
    while True:
        if step % 25 == 0 or state.is_terminal():
            for seat in (state.current_player() if not state.is_terminal() else 0, None):
                reader = -3 if seat is None else seat
                yield render_board(state, seat, state.history_messages(reader), translator("fr"))
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        step += 1


@pytest.mark.parametrize(
    ("game", "players"), [("citadels", 4), ("capitol", 3), ("capital_lux_2", 3), ("capital_lux_2", 1), ("caprice", 2)]
)
def test_every_french_board_spaces_its_punctuation(game: str, players: int) -> None:
    """The boards of a whole game in French (a seat's and a spectator's, the end screen): prompts, badges, log,
    pieces' names and tooltips, the results."""
    slips: list[str] = []
    for board in _boards(game, players):
        slips += _slips(_french_text(board))
    assert not slips, sorted(set(slips))[:10]


@pytest.mark.parametrize(("game", "players"), [("citadels", 4), ("capital_lux_2", 3)])
def test_french_boards_agree_in_number_and_say_no_english_word(game: str, players: int) -> None:
    """ "1 quartiers sur 8" was a Citadels city of one district (French: 0 and 1 take the singular); "garder une carte
    du draft" a Capital Lux 2 log line (the French rulebook's word is "paquet")."""
    slips: set[str] = set()
    for board in _boards(game, players):
        text = _french_text(board)
        slips.update(re.findall(r"\b[01] quartiers\b|\bdraft\b", text, re.I))
    assert not slips, slips


def test_every_french_page_spaces_its_punctuation(web: TestClient) -> None:
    answer = web.post("/api/tables", json={"game": "citadels", "seats": ["human", "bot:random", "bot:random"]})
    table, token = answer.json()["table"], answer.json()["seats"][0]["token"]
    pages = ["/?lang=fr", f"/tables/{table}?token={token}&lang=fr", f"/tables/{table}?lang=fr"]
    pages += [f"/rules/{game}?lang=fr" for game in GAMES] + [f"/leaderboard/{game}?lang=fr" for game in GAMES]
    slips: list[str] = []
    for path in pages:
        page = web.get(path)
        assert page.status_code == 200, path
        slips += [f"{path}: {s}" for s in _slips(_french_text(page.text))]
    created = web.post("/tables?lang=fr", data={"game": "caprice", "param_players": "2"}).text  # the invitations
    slips += [f"invite: {s}" for s in _slips(_french_text(created))]
    assert not slips, slips[:10]


CHIP = re.compile(r'<span class="chip seat-c(\d+)[^"]*"[^>]*>.*?<span class="chip-score">([^<]*)</span>', re.S)
RESULT = re.compile(r'<li class="result seat-c(\d+)[^"]*".*?<span class="score">([^<]*)</span>', re.S)
BADGE = re.compile(r'<li class="badge seat-c(\d+).*?</li>', re.S)
FACT = re.compile(r'<span class="fact">([^<]*)</span>')


@pytest.mark.parametrize(
    ("game", "players"), [("citadels", 4), ("capitol", 3), ("capital_lux_2", 3), ("capital_lux_2", 2)]
)
def test_at_the_end_the_side_panel_gives_each_seat_its_final_score(game: str, players: int) -> None:
    """The players' bar and badges say the score sheet's total once the game is over (Capital Lux 2's running
    "7 points + 3 Bonus cards" once stood beside a Total of 23), in English and French."""
    state = load_game(game, players=players).new_initial_state(3)
    rng = Rng(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    for lang in ("en", "fr"):
        for seat in (0, None):
            page = render_board(state, seat, state.history_messages(-3 if seat is None else seat), translator(lang))
            results = dict(RESULT.findall(page))
            chips = dict(CHIP.findall(page))
            assert len(results) == players and chips == results, (lang, chips, results)
            for match in BADGE.finditer(page):
                facts = FACT.findall(match.group(0))
                assert results[match.group(1)] in facts, (lang, facts, results[match.group(1)])


@pytest.mark.parametrize("game", GAMES)
def test_a_taken_back_move_is_a_log_line_with_its_seat_and_words(game: str) -> None:
    """An undo's "took back a move" line carries its seat's colour and words like any other line (issue #43 item 5):
    the side panel draws every line with ``seat`` and ``said``; a note without them broke the board after an Undo."""
    from meeple.web.boards import log_lines

    state = load_game(game, players=2 if game != "citadels" else 4).new_initial_state(3)
    while len(state.history) < 2:
        state.apply_action(state.legal_actions()[0])
    web = companion_for(game)
    events = [m for _after, _seat, m in state.log_events]
    lines = log_lines(web, state.history_messages(0), translator("en"), 0, events, (), [(1, 1)])
    noted = [line for line in lines if line["text"] == "took back a move"]
    assert len(noted) == 1 and noted[0]["seat"] == 1 and noted[0]["said"] == "Seat 2: took back a move"
    assert all(set(line) == {"number", "actor", "seat", "text", "said"} for line in lines)
