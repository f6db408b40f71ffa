"""Proposals and decisions move from the catalog app into their own, keeping their tables.

Only Django's idea of which app owns the models changes: the tables, their rows, constraints and
indexes stay as they are. Content types are relabelled rather than recreated, so permissions
(the Maintainers group's moderation rights among them) and admin history keep pointing at them.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.contrib.auth.management import create_permissions
from django.db import migrations, models

MOVED_MODELS = ["proposal", "decision"]
# Maintainers moderate: they read and decide proposals, and decisions are never changed or deleted.
MODERATION_PERMISSIONS = ["view_proposal", "change_proposal", "view_decision", "add_decision"]


def _relabel(apps, old_label, new_label):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED_MODELS:
        if ContentType.objects.filter(app_label=new_label, model=model).exists():
            continue
        ContentType.objects.filter(app_label=old_label, model=model).update(app_label=new_label)


def move_content_types(apps, schema_editor):
    _relabel(apps, "catalog", "proposals")


def restore_content_types(apps, schema_editor):
    _relabel(apps, "proposals", "catalog")


def grant_moderation(apps, schema_editor):
    """Give the Maintainers group the moderation permissions (already theirs when relabelled)."""
    app_config = apps.get_app_config("proposals")
    app_config.models_module = True
    create_permissions(app_config, verbosity=0)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Maintainers")
    group.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="proposals", codename__in=MODERATION_PERMISSIONS
        )
    )


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("catalog", "0009_proposals_move_out"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Proposal",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("url", models.URLField(max_length=2000, verbose_name="URL")),
                        ("title", models.CharField(max_length=300)),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("paper", "Paper"),
                                    ("book", "Book"),
                                    ("documentation", "Documentation"),
                                    ("specification", "Specification"),
                                    ("repository", "Repository"),
                                    ("article", "Article"),
                                    ("course", "Course"),
                                    ("whitepaper", "Whitepaper"),
                                    ("website", "Website"),
                                    ("watch", "Watch item"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("mechanism", models.TextField(verbose_name="what it teaches")),
                        (
                            "basis",
                            models.CharField(
                                choices=[
                                    ("mechanism-paper", "Paper that introduced the mechanism"),
                                    ("specification", "Specification or official documentation"),
                                    ("implementation", "Repository that implements it"),
                                    ("implementer-report", "Direct implementer report"),
                                ],
                                max_length=20,
                                verbose_name="kind of primary source",
                            ),
                        ),
                        ("basis_explanation", models.TextField(verbose_name="why it is a primary source")),
                        (
                            "hardware_software",
                            models.TextField(blank=True, verbose_name="hardware and software"),
                        ),
                        ("workload", models.TextField(blank=True)),
                        (
                            "precision_algorithm",
                            models.TextField(blank=True, verbose_name="precision and algorithm"),
                        ),
                        ("baseline", models.TextField(blank=True)),
                        (
                            "correctness_method",
                            models.TextField(blank=True, verbose_name="correctness method"),
                        ),
                        ("conflict_of_interest", models.TextField(blank=True)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "Pending"),
                                    ("changes_requested", "Changes requested"),
                                    ("accepted", "Accepted"),
                                    ("rejected", "Rejected"),
                                ],
                                default="pending",
                                max_length=20,
                            ),
                        ),
                        (
                            "created",
                            models.DateTimeField(default=django.utils.timezone.now, editable=False),
                        ),
                        ("updated", models.DateTimeField(auto_now=True)),
                        ("submitted_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "after_source",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="catalog.source",
                                verbose_name="belongs after",
                            ),
                        ),
                        (
                            "proposer",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="proposals",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "replaces",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="catalog.source",
                            ),
                        ),
                        (
                            "resulting_source",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="proposals",
                                to="catalog.source",
                            ),
                        ),
                        (
                            "tier",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="catalog.tier",
                            ),
                        ),
                        (
                            "topics",
                            models.ManyToManyField(blank=True, related_name="+", to="catalog.topic"),
                        ),
                    ],
                    options={
                        "db_table": "catalog_proposal",
                        "ordering": ["submitted_at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="Decision",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "action",
                            models.CharField(
                                choices=[
                                    ("accepted", "Accepted"),
                                    ("changes_requested", "Changes requested"),
                                    ("rejected", "Rejected"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("reason", models.TextField(blank=True)),
                        ("spam", models.BooleanField(default=False)),
                        (
                            "created",
                            models.DateTimeField(default=django.utils.timezone.now, editable=False),
                        ),
                        (
                            "maintainer",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "proposal",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="decisions",
                                to="proposals.proposal",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "catalog_decision",
                        "ordering": ["-created", "-pk"],
                    },
                ),
                migrations.AddIndex(
                    model_name="proposal",
                    index=models.Index(fields=["status", "submitted_at"], name="proposal_queue"),
                ),
                migrations.AddIndex(
                    model_name="proposal",
                    index=models.Index(fields=["proposer", "status"], name="proposal_by_proposer"),
                ),
                migrations.AddConstraint(
                    model_name="proposal",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("status__in", ["pending", "changes_requested"])),
                        fields=("url",),
                        name="proposal_unique_open_url",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="proposal",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("status__in", ["pending", "changes_requested", "accepted", "rejected"])
                        ),
                        name="proposal_status_valid",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="proposal",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            (
                                "basis__in",
                                [
                                    "mechanism-paper",
                                    "specification",
                                    "implementation",
                                    "implementer-report",
                                ],
                            )
                        ),
                        name="proposal_basis_is_primary",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="proposal",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("status", "accepted"), _negated=True),
                            ("resulting_source__isnull", False),
                            _connector="OR",
                        ),
                        name="proposal_accepted_has_source",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="proposal",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("baseline", ""),
                                ("correctness_method", ""),
                                ("hardware_software", ""),
                                ("precision_algorithm", ""),
                                ("workload", ""),
                            ),
                            models.Q(
                                models.Q(("hardware_software", ""), _negated=True),
                                models.Q(("workload", ""), _negated=True),
                                models.Q(("precision_algorithm", ""), _negated=True),
                                models.Q(("baseline", ""), _negated=True),
                                models.Q(("correctness_method", ""), _negated=True),
                            ),
                            _connector="OR",
                        ),
                        name="proposal_claim_all_or_none",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="proposal",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("title", ""), _negated=True), name="proposal_title_not_empty"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="proposal",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("url", ""), _negated=True), name="proposal_url_not_empty"
                    ),
                ),
                migrations.AddIndex(
                    model_name="decision",
                    index=models.Index(fields=["action", "-created"], name="decision_log"),
                ),
                migrations.AddConstraint(
                    model_name="decision",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("action__in", ["accepted", "changes_requested", "rejected"])),
                        name="decision_action_valid",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="decision",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("action", "accepted"), models.Q(("reason", ""), _negated=True), _connector="OR"
                        ),
                        name="decision_reason_required",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="decision",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("spam", False), ("action", "rejected"), _connector="OR"),
                        name="decision_spam_is_rejection",
                    ),
                ),
            ],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
        migrations.RunPython(grant_moderation, migrations.RunPython.noop),
    ]
