"""The arithmetic behind a player's points and tie-breaks, as lines a person can check."""

from __future__ import annotations

from engine.figures import figure

from .tiebreaks import TITLES, Ledger, factor_text, ordinal, verb


def lines(ledger: Ledger, player: str) -> tuple[str, ...]:
    """Return the player's points and each tie-break as readable arithmetic."""
    found = [points_line(ledger, player)]
    if ledger.annulled.get(player):
        found.append("Annulled: " + "; ".join(
            f"{g.game} ({g.annulled})" for g in ledger.annulled[player]))
    found.extend(line(ledger, name, player) for name in ledger.order)
    return tuple(found)


def points_line(ledger: Ledger, player: str) -> str:
    """Write how the player's points add up."""
    terms = []
    for game in ledger.games[player]:
        i = game.seats.index(player)
        if len(game.seats) == 2:
            other = ledger.names[game.seats[1 - i]]
            mine, theirs = game.places[i], game.places[1 - i]
            factor = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
            how = f"{verb(factor, 2)} {other}, {game.game}"
        else:
            sharing = game.ranks.count(game.ranks[i])
            place = int(game.places[i] - (sharing - 1) / 2)
            shared = "shared " if sharing > 1 else ""
            how = f"{shared}{ordinal(place)} of {len(game.seats)}, {game.game}"
        terms.append(f"{factor_text(game.points[i])} ({how})")
    terms.extend(f"{figure(b.points)} ({'late entry' if b.late else 'bye'}"
                 f"{'' if b.round is None else f', round {b.round}'})"
                 for b in ledger.byes.get(player, ()))
    total = figure(ledger.totals[player])
    return f"Points = {' + '.join(terms)} = {total}" if terms else "Points = 0 (no games yet)"


def line(ledger: Ledger, name: str, player: str) -> str:
    """Write how one tie-break of the player adds up."""
    title, value = TITLES[name], figure(ledger.values[name][player])
    met, names, totals = ledger.encounters(player), ledger.names, ledger.totals
    if name in ("sonneborn-berger", "neustadtl"):
        terms = [f"{factor_text(f)} x {figure(totals[q])} ({verb(f, len(g.seats))} {names[q]})"
                 for q, f, g in met if f]
        return f"{title} = {' + '.join(terms)} = {value}" if terms else f"{title} = 0"
    if name == "direct-encounter":
        rivals = ledger.groups.get(player, ())
        if not rivals:
            return f"{title} = 0 (nobody else is level on points and the tie-breaks before it)"
        terms = [f"{factor_text(f)} ({verb(f, len(g.seats))} {names[q]})"
                 for q, f, g in met if f and q in rivals]
        among = f"against {', '.join(names[q] for q in rivals)}"
        return f"{title} = {' + '.join(terms) or '0'} = {value}, {among}"
    if name in ("buchholz", "buchholz-cut-1", "opponents-average"):
        if not met:
            return f"{title} = 0 (no games yet)"
        summed = " + ".join(f"{figure(totals[q])} ({names[q]})" for q, _, _ in met)
        if name == "opponents-average":
            return f"{title} = ({summed}) / {len(met)} = {value}"
        if name == "buchholz":
            return f"{title} = {summed} = {value}"
        low = min(met, key=lambda m: totals[m[0]])[0]
        return f"{title} = {summed} - {figure(totals[low])} (lowest: {names[low]}) = {value}"
    if name == "wins":
        won = [g.game for g in ledger.games[player] if g.places[g.seats.index(player)] == 1]
        return f"{title} = {len(won)}" + (f" ({', '.join(won)})" if won else "")
    places = [figure(g.places[g.seats.index(player)]) for g in ledger.games[player]]
    if not places:
        return f"{title} = {value} (no games yet: last at a table of {value}, the largest)"
    return f"{title} = ({' + '.join(places)}) / {len(places)} = {value}"
