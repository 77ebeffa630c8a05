"""Messages, the reader's language and the engines' neutrality (issue "French and English everywhere")."""

from __future__ import annotations

import gettext
import json

import pytest

from meeple.core.registry import load_game
from meeple.games.citadels.vocabulary import DISTRICT, THE_CHARACTER
from meeple.i18n import (
    M,
    Message,
    Translator,
    UnknownLanguageError,
    language,
    language_from_accept,
    language_from_environment,
    normalize_language,
    plural,
    term,
    tr,
    translator,
)

GAMES = ("citadels", "capitol", "capital_lux_2", "caprice")


def test_a_message_reads_as_its_english_source_and_compares_by_value() -> None:
    warlord = term("citadels character", "Warlord")
    message = M("assassinate {character}", character=warlord)
    assert str(message) == "assassinate Warlord"
    assert message == M("assassinate {character}", character=term("citadels character", "Warlord"))
    assert message != M("assassinate {character}", character=term("citadels character", "King"))
    assert hash(message) == hash(M("assassinate {character}", character=warlord))
    assert str(plural("{n} card", "{n} cards", 1)) == "1 card"
    assert str(plural("{n} card", "{n} cards", 3)) == "3 cards"
    with pytest.raises(AttributeError):
        message.msgid = "x"  # type: ignore[misc]


def test_french_uses_the_rulebook_names() -> None:
    fr = translator("fr")
    assert fr.message(THE_CHARACTER[8]) == "le Condottiere"
    assert fr.message(THE_CHARACTER[1]) == "l'Assassin"
    names = [fr.message(DISTRICT[k]) for k in range(len(DISTRICT))]
    assert "Cour des miracles" in names and "Dracoport" in names and "Haunted City" not in names
    assert fr.message(M("build {district}", district=DISTRICT[0])) == "bâtir Temple"


def test_a_broken_translation_falls_back_to_english_instead_of_raising() -> None:
    catalog = gettext.NullTranslations()
    catalog.gettext = lambda message: "bâtir {quartier}"  # type: ignore[method-assign]
    broken = Translator("xx", catalog)
    assert broken.message(M("build {district}", district="Temple")) == "build Temple"


def test_the_language_comes_from_the_locale_then_english() -> None:
    assert language_from_environment({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert language_from_environment({"LC_ALL": "fr_CA", "LANG": "en_GB"}) == "fr"
    assert language_from_environment({"LC_ALL": "C", "LANG": "fr_FR"}) == "en"  # LC_ALL decides
    assert language_from_environment({"LANGUAGE": "de:fr", "LANG": "de_DE"}) == "fr"
    assert language_from_environment({"LANG": "de_DE.UTF-8"}) == "en"
    assert language_from_environment({}) == "en"


def test_accept_language_picks_the_preferred_language_meeple_speaks() -> None:
    assert language_from_accept("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == "fr"
    assert language_from_accept("de, en;q=0.5, fr;q=0.4") == "en"
    assert language_from_accept("en;q=0.2, fr;q=0.9") == "fr"
    assert language_from_accept("fr;q=0") == "en"
    assert language_from_accept("garbage;;q=x,") == "en"
    assert language_from_accept(None) == "en"


def test_an_unknown_language_says_which_there_are() -> None:
    assert normalize_language("FR_be.UTF-8") == "fr"
    with pytest.raises(UnknownLanguageError, match=r"'de'; meeple speaks en \(English\), fr \(Français\)"):
        normalize_language("de")


def test_the_current_language_is_per_context() -> None:
    message = M("take 2 gold")
    assert tr(message) == "take 2 gold"
    with language("fr"):
        assert tr(message) == "prendre 2 pièces d'or"
        with language("en"):
            assert tr(message) == "take 2 gold"
        assert tr(message) == "prendre 2 pièces d'or"
    assert tr(message) == "take 2 gold"


@pytest.mark.parametrize("name", GAMES)
def test_engines_stay_language_neutral(name: str) -> None:
    """Records, action texts and information states are the same whatever the reader's language."""

    def play(lang: str) -> tuple[str, list[str], str]:
        with language(lang):
            state = load_game(name).new_initial_state(7)
            texts = []
            while not state.is_terminal() and len(state.history) < 60:
                action = state.legal_actions()[len(state.history) % len(state.legal_actions())]
                texts.append(state.action_to_string(action))
                state.apply_action(action)
            return json.dumps(state.to_json(), sort_keys=True), texts, state.information_state_string(0)

    assert play("fr") == play("en")


@pytest.mark.parametrize("name", GAMES)
def test_every_action_message_renders_in_french_without_falling_back(name: str) -> None:
    """Each legal action of a played-out game has a French text different from its English one."""
    fr = translator("fr")
    state = load_game(name).new_initial_state(11)
    seen = 0
    while not state.is_terminal() and seen < 400:
        for action in state.legal_actions():
            message = state.action_message(action, perspective=state.current_player())
            assert isinstance(message, Message)
            english, french = str(message), fr.message(message)
            assert french and (french != english or english in _SAME_IN_BOTH), english
        state.apply_action(state.legal_actions()[seen % len(state.legal_actions())])
        seen += 1


_SAME_IN_BOTH: set[str] = set()
"""Action texts that read the same in French and English (none so far)."""


def test_the_text_cache_is_shared_by_a_games_states_and_not_pickled() -> None:
    import pickle

    game = load_game("capital_lux_2", players=3)
    state = game.new_initial_state(2)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    texts = state.history_texts(1)
    assert game.texts, "the history's texts are cached on the game"
    fresh = load_game("capital_lux_2", players=3).new_initial_state(2)
    for action in [a for _, a in state.history]:
        fresh.apply_action(action)
    assert fresh.history_texts(1) == texts  # same texts without the cache
    copy = pickle.loads(pickle.dumps(state))
    assert copy.game.texts == {} and copy.history_texts(1) == texts
    assert len(pickle.dumps(game)) < 100_000


def test_the_french_catalog_agrees_with_the_rulebook_names_in_the_game_data() -> None:
    """``name_fr`` in the data (district table, power tiles) and the French catalog say the same."""
    from meeple.games.capital_lux_2.powers import POWERS
    from meeple.games.citadels.data import KINDS

    fr = translator("fr")
    assert [fr.message(DISTRICT[i]) for i in range(len(KINDS))] == [k.name_fr for k in KINDS]
    for tile in POWERS.values():
        assert fr.pgettext("capital lux 2 tile", tile.name_en) == tile.name_fr, tile.tile_id


def test_an_empty_message_stays_empty_and_never_shows_the_catalog_header() -> None:
    french = translator("fr")
    assert "Project-Id-Version" in french._catalog.gettext("")  # what gettext itself answers for ""
    assert french.gettext("") == ""
    assert translator("en").gettext("") == ""
