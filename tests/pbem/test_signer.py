"""The signer of pbem/links.py on its own: each kind of token, its lifetime, key rotation."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from itsdangerous import URLSafeTimedSerializer
from itsdangerous.timed import TimestampSigner

from pbem.errors import BadLink, ExpiredLink
from pbem.links import MOVE_SALT, MoveGrant, Signer

GRANT = MoveGrant("6615c1807f", 2, 41)
KEY, OTHER, OLD, NEW = (
    f"{name} signing key: 32 bytes or longer" for name in ("a", "other", "old", "new")
)
YEAR = 365 * 24 * 60 * 60


def signed_ago(seconds: int, make: Callable[..., str], *args: Any) -> str:
    """A token made `seconds` ago."""
    then = int(time.time()) - seconds
    with mock.patch.object(TimestampSigner, "get_timestamp", return_value=then):
        return make(*args)


def test_a_move_token_carries_its_grant_and_nothing_else_reads_it():
    signer = Signer(KEY)
    token = signer.move_token(GRANT)
    assert signer.read_move_token(token) == GRANT
    assert URLSafeTimedSerializer(KEY, salt=MOVE_SALT).loads(token) == ["6615c1807f", 2, 41]
    with pytest.raises(BadLink, match="move link is not valid"):
        Signer(OTHER).read_move_token(token)
    with pytest.raises(BadLink):
        signer.read_signin_token(token)
    with pytest.raises(BadLink):
        signer.read_move_token(signer.signin_token(7))


@pytest.mark.parametrize("content", [["g", 1], ["g", "one", 2], "g.1.2", None, ["g", 1, 2, 3]])
def test_a_signed_move_token_with_malformed_content_is_a_bad_link(content):
    token = URLSafeTimedSerializer(KEY, salt=MOVE_SALT).dumps(content)
    with pytest.raises(BadLink, match="^this move link is not valid: its content is malformed$"):
        Signer(KEY).read_move_token(token)


def test_a_move_token_expires_after_the_signers_lifetime_with_a_clear_message():
    signer = Signer(KEY, max_age=3600)
    assert signer.read_move_token(signed_ago(3500, signer.move_token, GRANT)) == GRANT
    with pytest.raises(ExpiredLink, match="move link has expired"):
        signer.read_move_token(signed_ago(3700, signer.move_token, GRANT))


def test_new_tokens_use_the_current_key_and_old_keys_are_still_read():
    old = Signer(OLD)
    rotated = Signer(NEW, (OLD,))
    assert rotated.keys == [NEW, OLD]
    assert rotated.read_move_token(old.move_token(GRANT)) == GRANT
    assert Signer(NEW).read_move_token(rotated.move_token(GRANT)) == GRANT
    with pytest.raises(BadLink):
        old.read_move_token(rotated.move_token(GRANT))


def test_a_reply_reference_is_the_grant_and_a_short_mac_that_fits_an_address():
    signer = Signer(KEY)
    ref = signer.reply_ref(GRANT)
    digest = hmac.new(KEY.encode(), b"pbem.reply:6615c1807f.2.41", hashlib.sha256).digest()
    assert ref == "6615c1807f.2.41." + base64.b32encode(digest).decode()[:16].lower()
    assert len(ref) <= 64
    assert signer.read_reply_ref(ref) == GRANT
    assert signer.read_reply_ref(f"  {ref.upper()} ") == GRANT, "mail may change its case"


def test_a_reply_reference_made_elsewhere_or_altered_is_refused():
    signer = Signer(KEY)
    ref = signer.reply_ref(GRANT)
    with pytest.raises(BadLink, match="was not made by this server"):
        signer.read_reply_ref(ref.replace(".41.", ".42."))
    with pytest.raises(BadLink):
        signer.read_reply_ref(ref[:-1] + ("a" if ref[-1] != "a" else "b"))
    with pytest.raises(BadLink):
        Signer(OTHER).read_reply_ref(ref)


def test_a_reply_reference_of_a_retired_key_is_read_and_new_ones_use_the_current_key():
    old_ref = Signer(OLD).reply_ref(GRANT)
    rotated = Signer(NEW, (OLD,))
    assert rotated.read_reply_ref(old_ref) == GRANT
    assert rotated.reply_ref(GRANT) == Signer(NEW).reply_ref(GRANT) != old_ref


def test_a_sign_in_link_lasts_an_hour():
    signer = Signer(KEY, max_age=10 * YEAR)
    assert signer.read_signin_token(signer.signin_token(7)).player == 7
    assert signer.read_signin_token(signed_ago(3500, signer.signin_token, 7)).player == 7
    with pytest.raises(ExpiredLink, match="sign-in link has expired"):
        signer.read_signin_token(signed_ago(3700, signer.signin_token, 7))


def test_an_unsubscribe_link_lasts_ten_years_and_is_no_other_kind_of_token():
    signer = Signer(KEY, max_age=60)
    ten_years = 10 * YEAR
    almost = signed_ago(ten_years - 1800, signer.unsubscribe_token, 7)
    assert signer.read_unsubscribe_token(almost) == 7
    with pytest.raises(ExpiredLink, match="unsubscribe link has expired"):
        signer.read_unsubscribe_token(signed_ago(ten_years + 1800, signer.unsubscribe_token, 7))
    with pytest.raises(BadLink, match="unsubscribe link is not valid"):
        signer.read_unsubscribe_token(signer.signin_token(7))
