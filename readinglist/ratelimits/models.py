from django.conf import settings
from django.db import models


class Window(models.Model):
    """One reader's uses of one limited action (a fetch from a link, an import) in the window
    that started with the first of them; a use after the window ends starts the next one."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    action = models.CharField(max_length=60)
    started = models.DateTimeField()
    uses = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "action"], name="ratelimit_one_window"),
        ]

    def __str__(self) -> str:
        return f"{self.action} by {self.user_id}: {self.uses} since {self.started:%Y-%m-%d %H:%M}"
