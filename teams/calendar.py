"""A team's sessions as an iCalendar feed for calendar apps."""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from icalendar import Calendar, Event

from .emails import site_url
from .models import Team

SESSION_LENGTH = timedelta(hours=1)


def team_calendar(team: Team) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", f"-//{settings.SITE_NAME}//teams//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", f"{team.name} reading group")
    team_url = site_url(team.get_absolute_url())
    stamp = timezone.now()
    sessions = team.sessions.select_related("facilitator").prefetch_related("sources")
    for session in sessions:
        event = Event()
        event.add("uid", f"session-{session.pk}@{settings.SITE_DOMAIN}")
        event.add("summary", session.title)
        event.add("dtstart", session.starts_at)
        event.add("dtend", session.starts_at + SESSION_LENGTH)
        event.add("dtstamp", stamp)
        event.add("url", team_url)
        reading = "\n".join(f"- {source.title}" for source in session.sources.all())
        lead = f"Facilitator: {session.facilitator}\n" if session.facilitator else ""
        event.add("description", f"{lead}Read:\n{reading}\n\n{session.agenda}".strip())
        calendar.add_component(event)
    return calendar.to_ical()
