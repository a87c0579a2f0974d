"""Ledger entries are never updated or deleted, whatever code runs: the
database itself refuses. Corrections are new entries (staff adjustments).

PostgreSQL only (the production and test database). TRUNCATE, used to empty
a test database, is a different statement and is still allowed."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION coins_entry_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'coins_entry rows are immutable (% refused on entry %)', TG_OP, OLD.id
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER coins_entry_immutable
    BEFORE UPDATE OR DELETE ON coins_entry
    FOR EACH ROW EXECUTE FUNCTION coins_entry_refuse_change();
"""

DROP = """
DROP TRIGGER IF EXISTS coins_entry_immutable ON coins_entry;
DROP FUNCTION IF EXISTS coins_entry_refuse_change();
"""


def create_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("coins", "0001_initial")]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
