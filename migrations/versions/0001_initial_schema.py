"""initial schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-21 07:35:31.350447
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('players',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('mail_pref', sa.String(length=10), nullable=False),
    sa.Column('api_token_hash', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('api_token_hash', name=op.f('uq_players_api_token_hash')),
    sa.UniqueConstraint('email', name=op.f('uq_players_email'))
    )
    op.create_table('games',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('public_id', sa.String(length=32), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('head_seq', sa.Integer(), nullable=False),
    sa.Column('head_hash', sa.String(length=64), nullable=False),
    sa.Column('stream', sa.String(length=64), nullable=False),
    sa.Column('chances', sa.Integer(), nullable=False),
    sa.Column('deadline_hours', sa.Integer(), nullable=False),
    sa.Column('created_by', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['created_by'], ['players.id'], name=op.f('fk_games_created_by_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games')),
    sa.UniqueConstraint('public_id', name=op.f('uq_games_public_id'))
    )
    op.create_table('dice_secrets',
    sa.Column('game_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('seed', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_dice_secrets_game_id_games')),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_dice_secrets'))
    )
    op.create_table('events',
    sa.Column('game_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('payload', sa.Text(), nullable=False),
    sa.Column('at', sa.String(length=40), nullable=False),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_events_game_id_games')),
    sa.PrimaryKeyConstraint('game_id', 'seq', name=op.f('pk_events'))
    )
    op.create_table('game_seats',
    sa.Column('game_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_seats_game_id_games')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_game_seats_player_id_players')),
    sa.PrimaryKeyConstraint('game_id', 'seat', name=op.f('pk_game_seats'))
    )
    op.create_index(op.f('ix_game_seats_player_id'), 'game_seats', ['player_id'], unique=False)
    op.create_table('outbox',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('message_id', sa.String(length=255), nullable=False),
    sa.Column('purpose', sa.String(length=20), nullable=False),
    sa.Column('game_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('to_addr', sa.String(length=320), nullable=False),
    sa.Column('subject', sa.String(length=300), nullable=False),
    sa.Column('body_text', sa.Text(), nullable=False),
    sa.Column('body_html', sa.Text(), nullable=True),
    sa.Column('headers', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_outbox_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox')),
    sa.UniqueConstraint('message_id', name=op.f('uq_outbox_message_id'))
    )
    op.create_index('ix_outbox_due', 'outbox', ['sent_at', 'next_attempt_at'], unique=False)
    op.create_index(op.f('ix_outbox_game_id'), 'outbox', ['game_id'], unique=False)
    op.create_index(op.f('ix_outbox_to_addr'), 'outbox', ['to_addr'], unique=False)
    op.create_table('snapshots',
    sa.Column('game_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('rules_version', sa.Integer(), nullable=False),
    sa.Column('state', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_snapshots_game_id_games')),
    sa.PrimaryKeyConstraint('game_id', 'seq', name=op.f('pk_snapshots'))
    )
    op.create_table('submissions',
    sa.Column('nonce', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_submissions_game_id_games')),
    sa.PrimaryKeyConstraint('nonce', name=op.f('pk_submissions'))
    )


def downgrade() -> None:
    op.drop_table('submissions')
    op.drop_table('snapshots')
    op.drop_index(op.f('ix_outbox_to_addr'), table_name='outbox')
    op.drop_index(op.f('ix_outbox_game_id'), table_name='outbox')
    op.drop_index('ix_outbox_due', table_name='outbox')
    op.drop_table('outbox')
    op.drop_index(op.f('ix_game_seats_player_id'), table_name='game_seats')
    op.drop_table('game_seats')
    op.drop_table('events')
    op.drop_table('dice_secrets')
    op.drop_table('games')
    op.drop_table('players')
