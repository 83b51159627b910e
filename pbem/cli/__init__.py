"""The `pbem` command: a group per capability, each in its own module."""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import ScriptInfo

from .. import __version__
from ..errors import ConfigError
from ..web.app import create_app
from . import director, fetch, fuzz, games, logs, mail, ops, ratings, tournaments


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbem")
@click.pass_context
def main(ctx: click.Context) -> None:
    """pbem: a play-by-email turn server for the Martian dice games."""
    # Commands run inside the app (its settings, database and mail); a test passes its own.
    if ctx.obj is None:
        ctx.obj = ScriptInfo(create_app=configured_app, set_debug_flag=False)


def configured_app() -> Flask:
    """The app from the environment; a setting it cannot start with is said, not traced."""
    try:
        return create_app()
    except ConfigError as e:
        raise click.ClickException(str(e)) from e


for command in (
    ops.serve,
    ops.db,
    ops.send_mail,
    mail.mail,
    mail.doctor,
    ops.tick,
    games.new_game,
    games.show,
    games.play,
    games.ingest_mail,
    fetch.fetch_mail,
    logs.export_game,
    logs.import_log,
    logs.verify,
    director.director,
    fuzz.fuzz,
    tournaments.tournament,
    ratings.ratings,
):
    main.add_command(command)
