"""`pbem tournament formats`, and the format settings that creating an event takes."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..tournaments.core import formats

F = TypeVar("F", bound=Callable[..., Any])


def with_settings(command: F) -> F:
    """Add an option per setting of a registered format, and `--setting KEY=VALUE`."""
    for name, users in reversed(formats.declared().items()):
        first = users[0][1]
        words = "; ".join(f"{fmt.title}: {setting.help}" for fmt, setting in users)
        command = click.option(f"--{name.replace('_', '-')}", name,
                               type=int if first.whole else float, help=words)(command)
    return click.option(
        "--setting", "extra", multiple=True, metavar="KEY=VALUE",
        help="Any format's setting by its name (an installed format's too), e.g. reach=2.",
    )(command)


def settings_from(given: dict[str, Any]) -> dict[str, Any]:
    """The settings given as options and as KEY=VALUE, without those left out."""
    extra = given.pop("extra", ())
    found = {k: v for k, v in given.items() if v is not None}
    for item in extra:
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not key:
            raise click.BadParameter(f"--setting takes KEY=VALUE, not {item!r}")
        try:
            found[key] = int(value) if value.lstrip("-").isdigit() else float(value)
        except ValueError as e:
            raise click.BadParameter(f"--setting {key} takes a number, not {value!r}") from e
    return found


def as_options(message: str, system: str) -> str:
    """A format's refusal with each setting it names written as the option that sets it."""
    for setting in formats.format_for(system).settings:
        message = re.sub(rf"\b{setting.name}\b", f"--{setting.name.replace('_', '-')}", message)
    return message


def known_system(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Check a format's system name against the registry, naming the known ones."""
    known = [fmt.system for fmt in formats.formats()]
    if value not in known:
        raise click.BadParameter(f"{value!r} is not one of {', '.join(known)}")
    return value


@click.command("formats")
def formats_command() -> None:
    """List the tournament formats (the built-ins and installed ones) and their settings."""
    for fmt in formats.formats():
        click.echo(f"{fmt.system}: {fmt.summary}")
        for setting in fmt.settings:
            unit = f" of {setting.unit}" if setting.unit else ""
            kind = "a whole number" if setting.whole else f"a number{unit}"
            click.echo(f"  --{setting.name.replace('_', '-')} ({kind}): {setting.help}")
    for problem in formats.problems():
        click.echo(f"not loaded: {problem}", err=True)
