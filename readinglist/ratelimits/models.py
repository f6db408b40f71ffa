from django.conf import settings
from django.db import models


class Use(models.Model):
    """One counted use of a limited action (a fetch from a link, an import) by one reader.

    Rows older than the action's window are deleted as the reader's next use is counted, so a
    reader never keeps more rows than their limit.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    action = models.CharField(max_length=60)
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "action", "at"], name="ratelimit_use_recent")]

    def __str__(self) -> str:
        return f"{self.action} by {self.user_id} at {self.at:%Y-%m-%d %H:%M}"
