"""Committed dice (docs/auditing.md), checked against an independent version of the algorithm."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from pbem.log import chain, dice
from pbem.models import DiceSecret, Outbox

from ..pipe import csrf, game_row, log, move, start, svc_of, token


class Stream:
    """The bytes of one chance event, read block by block: HMAC-SHA256(seed, "stream:n:i")."""

    def __init__(self, seed: bytes, stream: str, n: int) -> None:
        self.seed, self.prefix = seed, f"{stream}:{n}:"
        self.buffer, self.blocks, self.pos = b"", 0, 0

    def take(self, size: int) -> bytes:
        while len(self.buffer) < self.pos + size:
            message = (self.prefix + str(self.blocks)).encode()
            self.buffer += hmac.digest(self.seed, message, "sha256")
            self.blocks += 1
        self.pos += size
        return self.buffer[self.pos - size : self.pos]


def their_roll(seed_hex: str, stream: str, n: int, count: int, sides: int) -> list[int]:
    source, faces = Stream(bytes.fromhex(seed_hex), stream, n), []
    while len(faces) < count:
        (b,) = source.take(1)
        if b < 256 - 256 % sides:
            faces.append(b % sides + 1)
    return faces


def their_shuffle(seed_hex: str, stream: str, n_event: int, n: int) -> list[int]:
    source, order = Stream(bytes.fromhex(seed_hex), stream, n_event), list(range(n))
    for i in reversed(range(1, n)):
        w = int.from_bytes(source.take(4), "big")
        while w >= 2**32 - 2**32 % (i + 1):
            w = int.from_bytes(source.take(4), "big")
        j = w % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


SEEDS = [bytes([k]) * 32 for k in (0, 1, 255)] + [random.Random(k).randbytes(32) for k in range(5)]
STREAMS = ["0a1b2c3d4e", "cup-2026-round-1", "ünïcode"]


@pytest.mark.parametrize("seed", [s.hex() for s in SEEDS])
@pytest.mark.parametrize("stream", STREAMS)
def test_rolls_match_an_independent_implementation(seed, stream):
    for n, count, sides in itertools.product(range(6), (1, 2, 5, 40), (2, 6, 7, 20, 100)):
        assert dice.roll(seed, stream, n, count, sides) == their_roll(
            seed, stream, n, count, sides
        ), (n, count, sides)


@pytest.mark.parametrize("seed", [s.hex() for s in SEEDS])
@pytest.mark.parametrize("stream", STREAMS)
def test_shuffles_match_an_independent_implementation(seed, stream):
    for n_event, n in itertools.product(range(6), (0, 1, 2, 3, 7, 52, 110)):
        assert dice.shuffle(seed, stream, n_event, n) == their_shuffle(seed, stream, n_event, n)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    stream=st.text(min_size=1, max_size=20),
    n=st.integers(0, 10_000),
    count=st.integers(1, 60),
    sides=st.integers(2, 255),
)
def test_any_roll_matches_the_independent_implementation(seed, stream, n, count, sides):
    assert dice.roll(seed.hex(), stream, n, count, sides) == their_roll(
        seed.hex(), stream, n, count, sides
    )


def test_a_byte_at_or_above_the_limit_is_skipped_not_folded():
    # Find a stream whose first byte must be rejected for a d100 (limit 200).
    seed = bytes(32)
    n = next(n for n in range(10_000) if Stream(seed, "g", n).take(1)[0] >= 200)
    first, second = Stream(seed, "g", n).take(2)

    faces = dice.roll(seed.hex(), "g", n, 1, 100)

    assert first >= 200
    if second < 200:
        assert faces == [second % 100 + 1]
    assert faces == their_roll(seed.hex(), "g", n, 1, 100)


def words(*values: int) -> bytes:
    return b"".join(v.to_bytes(4, "big") for v in values)


@pytest.mark.parametrize(
    "n, stream_bytes, expected",
    [
        # 2**32 % 3 == 1: the one word 2**32 - 1 is refused, then j = 4 % 3 = 1, then 1 % 2.
        (3, words(2**32 - 1, 4, 1), [0, 2, 1]),
        # 2**32 % 7 == 4: 2**32 - 4 is the first word refused, 2**32 - 5 the last one used.
        (7, words(2**32 - 4, 2**32 - 5, 0, 0, 0, 0, 0), [1, 2, 3, 4, 5, 0, 6]),
        # 2**32 % 2 == 0: no word is refused when choosing from two.
        (2, words(2**32 - 2), [1, 0]),
    ],
)
def test_a_shuffle_skips_a_word_at_or_above_its_limit(monkeypatch, n, stream_bytes, expected):
    monkeypatch.setattr(dice, "byte_stream", lambda *args: iter(stream_bytes))
    assert dice.shuffle("00" * 32, "g", 0, n) == expected


def test_a_roll_reads_the_second_block_when_the_first_runs_out():
    seed = bytes(32).hex()
    # 40 d100 need more than 32 bytes at a 22% rejection rate.
    assert dice.roll(seed, "g", 0, 40, 100) == their_roll(seed, "g", 0, 40, 100)


def test_the_commitment_is_sha256_of_the_seed_bytes():
    for seed in SEEDS:
        assert dice.commitment(seed.hex()) == hashlib.sha256(seed).hexdigest()
        assert dice.commitment(seed.hex()) != hashlib.sha256(seed.hex().encode()).hexdigest()


@pytest.mark.real_seeds
def test_new_seeds_are_32_random_bytes():
    seeds = {dice.new_seed() for _ in range(50)}

    assert len(seeds) == 50
    assert all(len(bytes.fromhex(s)) == 32 for s in seeds)


def test_six_thousand_d6_are_roughly_uniform():
    faces = Counter(dice.roll(SEEDS[3].hex(), "distribution", 0, 6000, 6))

    assert sorted(faces) == [1, 2, 3, 4, 5, 6]
    assert all(800 <= faces[f] <= 1200 for f in range(1, 7)), faces


def test_shuffles_of_three_are_roughly_uniform():
    orders = Counter(tuple(dice.shuffle(SEEDS[4].hex(), "s", n, 3)) for n in range(6000))

    assert len(orders) == 6
    assert all(800 <= c <= 1200 for c in orders.values()), orders


def test_events_and_streams_give_different_dice():
    seed = SEEDS[5].hex()

    rolls = {tuple(dice.roll(seed, s, n, 10, 6)) for s in STREAMS for n in range(20)}

    assert len(rolls) == len(STREAMS) * 20


def test_every_roll_of_a_finished_game_is_what_the_revealed_seed_derives(app, client):
    public_id = start(app)
    for _ in range(10):
        move(app, public_id)
    client.post(
        f"/play/{token(app, public_id)}/resign",
        data={"csrf": csrf(client), "confirm": "yes"},
    )

    entries = log(app, public_id)
    setup, reveal = entries[0].payload, entries[-1]
    assert reveal.kind == "reveal"
    seed = reveal.payload["seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == setup["commitment"]
    stream = game_row(app, public_id).stream
    chances = [e for e in entries if e.kind in ("roll", "shuffle")]
    assert len(chances) >= 12
    for n, entry in enumerate(chances):
        p = entry.payload
        assert p["values"] == their_roll(seed, stream, n, p["count"], p["sides"]), entry.seq
    assert game_row(app, public_id).chances == len(chances)
    assert chain.check_chain(entries) is None


def test_the_seed_is_not_in_the_log_or_the_mail_before_the_game_ends(app):
    public_id = start(app)
    move(app, public_id)

    with svc_of(app).db.read() as s:
        seed = s.get(DiceSecret, game_row(app, public_id).id).seed
        mails = list(s.scalars(select(Outbox)))
    exported = "".join(str(e.to_json()) for e in log(app, public_id))

    assert seed not in exported
    assert all(seed not in m.body_text + (m.body_html or "") for m in mails)
    for path in (f"/games/{public_id}/log.jsonl", f"/games/{public_id}/audit"):
        page = app.test_client().get(path)
        assert page.status_code == 200
        assert seed not in page.get_data(as_text=True)


def test_games_sharing_a_stream_roll_the_same_dice(app):
    one = start(app, stream="cup-1")
    two = start(app, players=(("cy@example.org", None), ("di@example.org", None)), stream="cup-1")

    with svc_of(app).db.read() as s:
        seeds = [s.get(DiceSecret, game_row(app, g).id).seed for g in (one, two)]
    coming = [[their_roll(seed, "cup-1", n, 6, 6) for n in range(10)] for seed in seeds]

    assert coming[0] == coming[1]
