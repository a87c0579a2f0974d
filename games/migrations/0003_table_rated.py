# Table.rated: a rated or casual table (ratings/, docs/ratings.md).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_seat_seen_at'),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='rated',
            field=models.BooleanField(default=True),
        ),
    ]
