"""The match's record becomes an append-only action log (games/services/match_log.py):
each existing match's deals (and end) go into one log row at its current version; the
row's `document` keeps the record's head while the match runs, the whole record once it
is over (as the match service writes it), so that every record reads back as stored."""

import django.db.models.deletion
from django.db import migrations, models

HEAD_KEYS = ("format", "variant", "options", "players")


def records_into_the_log(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchAction = apps.get_model("games", "MatchAction")
    rows = []
    for match in Match.objects.only("pk", "version", "status", "record").iterator(chunk_size=200):
        record = match.record
        over = match.status != "running"
        match.document = record if over else {key: record[key] for key in HEAD_KEYS}
        match.save(update_fields=["document"])
        entries = [{"deal": deal, "index": index} for index, deal in enumerate(record.get("deals", []))]
        if record.get("end") is not None:
            entries.append({"end": record["end"]})
        rows.append(MatchAction(match_id=match.pk, version=match.version, entries=entries))
        if len(rows) >= 200:
            MatchAction.objects.bulk_create(rows)
            rows = []
    MatchAction.objects.bulk_create(rows)


def log_into_the_records(apps, schema_editor):
    # The fold of games/services/match_log.py's `assemble`, copied: a migration must keep
    # working whatever the app's code becomes.
    Match = apps.get_model("games", "Match")
    MatchAction = apps.get_model("games", "MatchAction")
    for match in Match.objects.all().iterator(chunk_size=200):
        if "deals" in match.document:
            match.record = match.document
            match.save(update_fields=["record"])
            continue
        deals, end = [], None
        for entries in (MatchAction.objects.filter(match_id=match.pk, version__lte=match.version)
                        .order_by("version").values_list("entries", flat=True)):
            for entry in entries:
                if "actions" in entry:
                    deals[-1]["actions"].extend(entry["actions"])
                elif "deal" in entry:
                    deals.append({**entry["deal"], "actions": list(entry["deal"]["actions"])})
                elif "end" in entry:
                    end = entry["end"]
        match.record = {**match.document, "deals": deals, **({"end": end} if end is not None else {})}
        match.save(update_fields=["record"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_spectators'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='document',
            field=models.JSONField(null=True,
                                   help_text="The joker-record/1 document's head while the match runs, all of it once over."),
        ),
        migrations.AlterField(
            model_name='match',
            name='record',
            field=models.JSONField(null=True, help_text='The joker-record/1 document, every dealt card included (server only).'),
        ),
        migrations.CreateModel(
            name='MatchAction',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.PositiveIntegerField()),
                ('entries', models.JSONField()),
                ('match', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name='log', to='games.match')),
            ],
            options={
                'verbose_name': 'match action',
                'verbose_name_plural': 'match actions',
                'constraints': [models.UniqueConstraint(fields=('match', 'version'),
                                                        name='match_action_unique_version')],
            },
        ),
        migrations.RunPython(records_into_the_log, log_into_the_records),
    ]
