"""Signed tokens for move, sign-in and unsubscribe links (docs/architecture.md §6)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from .errors import BadLink, ConfigError, ExpiredLink

MOVE_SALT = "pbem.move"
SIGNIN_SALT = "pbem.signin"
UNSUBSCRIBE_SALT = "pbem.unsubscribe"
REGISTER_SALT = "pbem.register"
SIGNIN_MAX_AGE = 60 * 60
REGISTER_MAX_AGE = 7 * 24 * 60 * 60
MIN_KEY_BYTES = 32  # a signing key shorter than this is refused: too easy to guess
MAKE_A_KEY = "python3 -c 'import secrets; print(secrets.token_hex(32))'"


def check_key(key: str, what: str) -> None:
    """Refuse a signing key shorter than MIN_KEY_BYTES, saying how to make a good one."""
    size = len(key.encode())
    if size < MIN_KEY_BYTES:
        raise ConfigError(
            f"{what} is {size} bytes long; a signing key needs at least {MIN_KEY_BYTES} "
            f"random bytes. Make one with: {MAKE_A_KEY}"
        )


@dataclass(frozen=True)
class MoveGrant:
    """What a move link allows: act for one seat of one game, issued at one seq."""

    game: str
    seat: int
    seq: int


@dataclass(frozen=True)
class SigninGrant:
    """What a sign-in link allows: sign one player in, once, in one session generation."""

    player: int
    generation: int
    nonce: str


class Signer:
    """Signs and checks tokens with the current key, accepting the fallback keys."""

    def __init__(self, secret_key: str, fallbacks: tuple[str, ...] = (), max_age: int = 0):
        check_key(secret_key, "the secret key")
        for number, key in enumerate(fallbacks, 1):
            check_key(key, f"fallback key {number}")
        self.keys = [secret_key, *fallbacks]
        self.max_age = max_age or 60 * 60 * 24 * 30

    def _serializer(self, salt: str) -> URLSafeTimedSerializer:
        # itsdangerous signs with the last key and verifies with any of them.
        return URLSafeTimedSerializer(list(reversed(self.keys)), salt=salt)

    def _load(self, salt: str, token: str, max_age: int, what: str) -> Any:
        """The content of a token younger than max_age seconds (0: of any age)."""
        try:
            return self._serializer(salt).loads(token, max_age=max_age or None)
        except SignatureExpired as e:
            raise ExpiredLink(f"this {what} has expired; ask for a new one") from e
        except BadSignature as e:
            raise BadLink(
                f"this {what} is not valid: it was not made by this server or was cut short"
            ) from e

    def move_token(self, grant: MoveGrant) -> str:
        """A token allowing a seat to act in a game."""
        return str(self._serializer(MOVE_SALT).dumps([grant.game, grant.seat, grant.seq]))

    def read_move_token(self, token: str, *, any_age: bool = False) -> MoveGrant:
        """The grant inside a move token; BadLink or ExpiredLink if it cannot be used.

        `any_age` reads a genuine token however old: only to mail its seat a fresh link.
        """
        data = self._load(MOVE_SALT, token, 0 if any_age else self.max_age, "move link")
        try:
            game, seat, seq = data
            return MoveGrant(str(game), int(seat), int(seq))
        except (TypeError, ValueError) as e:
            raise BadLink("this move link is not valid: its content is malformed") from e

    def reply_ref(self, grant: MoveGrant) -> str:
        """A short signed reference for replies: fits an address's local part (<= 64)."""
        body = f"{grant.game}.{grant.seat}.{grant.seq}"
        return f"{body}.{self._mac(body, self.keys[0])}"

    def read_reply_ref(self, ref: str) -> MoveGrant:
        """The grant a reply reference names; BadLink if it was not made here."""
        body, _, mac = ref.strip().lower().rpartition(".")
        if not any(hmac.compare_digest(mac, self._mac(body, key)) for key in self.keys):
            raise BadLink(f"the reply reference {ref!r} was not made by this server")
        game, seat, seq = body.split(".")
        return MoveGrant(game, int(seat), int(seq))

    @staticmethod
    def _mac(body: str, key: str, purpose: str = "reply") -> str:
        message = f"pbem.{purpose}:{body}".encode()
        digest = hmac.new(key.encode(), message, hashlib.sha256).digest()
        return base64.b32encode(digest).decode()[:16].lower()

    def mac(self, body: str, purpose: str) -> str:
        """A short signature of a text for one purpose, with the current key."""
        return self._mac(body, self.keys[0], purpose)

    def number_ref(self, purpose: str, number: int) -> str:
        """A signed reference to a row of ours ("b" a mail sent, "c" commands to confirm).

        It fits an address's local part: a bounce comes back to pbem+b12.MAC@domain, a
        confirmation to pbem+c7.MAC@domain.
        """
        return f"{purpose}{number}.{self._mac(f'{purpose}{number}', self.keys[0], purpose)}"

    def read_number_ref(self, purpose: str, ref: str) -> int:
        """The row a reference of this purpose names; BadLink if it was not made here."""
        body, _, mac = ref.strip().lower().rpartition(".")
        if (
            not body.startswith(purpose)
            or not re.fullmatch(r"[0-9]{1,18}", body[len(purpose):])
            or not any(hmac.compare_digest(mac, self._mac(body, k, purpose)) for k in self.keys)
        ):
            raise BadLink(f"the reference {ref!r} was not made by this server")
        return int(body[len(purpose):])

    def signin_token(self, player_id: int, generation: int = 0) -> str:
        """A short-lived token that signs a player in, once, unless they signed out since."""
        nonce = secrets.token_hex(16)
        return str(self._serializer(SIGNIN_SALT).dumps([player_id, generation, nonce]))

    def read_signin_token(self, token: str) -> SigninGrant:
        """The player a sign-in token is for, their session generation, and its nonce."""
        data = self._load(SIGNIN_SALT, token, SIGNIN_MAX_AGE, "sign-in link")
        try:
            player, generation, nonce = data
            return SigninGrant(int(player), int(generation), str(nonce)[:32])
        except (TypeError, ValueError) as e:
            raise BadLink("this sign-in link is not valid: ask for a new one") from e

    def unsubscribe_token(self, player_id: int) -> str:
        """A token that stops mail to a player (it does not expire)."""
        return str(self._serializer(UNSUBSCRIBE_SALT).dumps(player_id))

    def read_unsubscribe_token(self, token: str) -> int:
        """The player an unsubscribe token is for."""
        return int(self._load(UNSUBSCRIBE_SALT, token, 10 * 365 * 86400, "unsubscribe link"))

    def register_token(self, tournament: str, email: str, by: str | None = None) -> str:
        """A token that enters an address in a tournament (valid for a week); `by` names
        the director (or operator) who invited them, which a private event needs."""
        data = [tournament, email] if by is None else [tournament, email, by]
        return str(self._serializer(REGISTER_SALT).dumps(data))

    def read_register_token(self, token: str) -> tuple[str, str, str | None]:
        """The tournament and address a registration token is for, and who invited them."""
        data = self._load(REGISTER_SALT, token, REGISTER_MAX_AGE, "registration link")
        try:
            tournament, email, *by = data
            if len(by) > 1:
                raise ValueError("too many fields")
            return str(tournament), str(email), str(by[0]) if by else None
        except (TypeError, ValueError) as e:
            raise BadLink("this registration link is not valid: its content is malformed") from e
