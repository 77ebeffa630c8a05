"""The text printed by ``meeple rules citadels``."""

from meeple.i18n.message import M

RULES_SUMMARY = M(
    """\
# Citadels (Citadelles, 1st edition, Bruno Faidutti, 2000)

Build the most valuable city. 3-7 players (2 with `variant_2p_ffg`). Each player starts with 4 district cards and
2 gold; a random player holds the crown. The game ends after the round in which a city reaches 8 districts
(3 players: 10; quick game: 7 or 6).

## A round
1. **Draft.** The 8 characters are shuffled; 1 goes face down, some face up (3p: 2, 4p: 2, 5p: 1, 6-7p: 0; the King
   is never face up). From the crown holder leftwards each player secretly keeps one and passes the rest; the last
   card goes face down. 7 players: the last player also takes the face-down card, keeps one of the two.
   3 players (1st edition): no Assassin.
2. **Calls** 1 to 8: the player holding the character reveals it and plays a turn. A killed character stays silent
   and is revealed at the end of the round.

## A turn
- Mandatory action: **take 2 gold**, or **draw 2 cards, keep 1** (Observatory: draw 3; Library: keep 2; both: draw
  3 keep 2); the others go under the deck. Not offered when the deck is empty.
- Then build at most 1 district (Architect: 3), paying its cost; never two districts of one name in a city.
- At any time, once: colour income (1 gold per district of the character's colour; School of Magic counts);
  the character's power; Laboratory (discard a card for 1 gold); Smithy (pay 3 gold, draw 3).
- Characters: 1 Assassin kills a character (2-8). 2 Thief robs a character (3-8, not the killed one): all its
  gold when it is revealed. 3 Magician swaps hands with a player, or puts k cards under the deck and draws k.
  4 King (yellow) takes the crown when revealed. 5 Bishop (blue): his city is safe from the Warlord unless he was
  killed. 6 Merchant (green) +1 gold at the start of the turn. 7 Architect draws 2 extra cards at the start and
  builds up to 3. 8 Warlord (red): at the end of his turn may destroy a district (cost - 1 gold; not the Keep, not
  a complete city, not the live Bishop's city); a Graveyard owner may pay 1 gold to take it into hand.

## Scoring
Sum of district costs (University, Dragon Gate: 8), +3 for all five colours (Haunted City: any colour unless built in
the last round), +4 for the first complete city, +2 for the other complete cities. Ties: district values without
bonuses, then gold, then a shared win.

## Variant flags
- `players` (default 4): 3-7; 2 only with `variant_2p_ffg`.
- `quick_game` = off | 7 | 6: end at 7 or 6 districts.
- `killed_king_takes_crown` (default false): a killed King still takes the crown at the end of the round.
- `deck` = fr1 (Church 4, Palace 2) | en (Church 3, Palace 3).
- `great_wall` (en deck only, default false): adds the Great Wall (cost 6): destroying another district in its city
  costs the Warlord 1 more.
- `variant_2p_ffg`: 2 players with 2 characters each and the FFG draft (face-down discards), end at 8.
- `variant_3p_ffg`: 3 players with 2 characters each, with the Assassin, end at 8.
- `max_rounds` (default 100): an engine safety cap; the game is scored after that round.
"""
)
