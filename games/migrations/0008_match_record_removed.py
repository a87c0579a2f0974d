"""The match's record now lives in its action log (0007 moved it there)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_match_action_log'),
    ]

    operations = [
        migrations.RemoveField(model_name='match', name='record'),
        migrations.AlterField(
            model_name='match',
            name='document',
            field=models.JSONField(help_text="The joker-record/1 document's head while the match runs, all of it once over."),
        ),
    ]
