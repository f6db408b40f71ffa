"""A team's sessions as an iCalendar feed for calendar apps."""

from django.conf import settings
from django.utils import timezone
from icalendar import Calendar, Event

from .emails import site_url
from .models import Session, Team, with_sources


def calendar_name(team: Team) -> str:
    """ "Kernels reading group", but never "… reading group reading group"."""
    suffix = "reading group"
    return team.name if team.name.casefold().endswith(suffix) else f"{team.name} {suffix}"


def team_calendar(team: Team) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", f"-//{settings.SITE_NAME}//teams//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", calendar_name(team))
    stamp = timezone.now()
    sessions = with_sources(team.sessions.select_related("facilitator"))
    for session in sessions:
        event = Event()
        event.add("uid", f"session-{session.pk}@{settings.SITE_DOMAIN}")
        event.add("summary", session.title)
        event.add("dtstart", session.starts_at)
        event.add("dtend", session.ends_at)
        event.add("dtstamp", stamp)
        session_url = site_url(session.get_absolute_url())
        event.add("url", session_url)
        if session.place or session.meeting_url:
            event.add("location", session.place or session.meeting_url)
        event.add("description", _description(session, session_url))
        calendar.add_component(event)
    return calendar.to_ical()


def _description(session: Session, session_url: str) -> str:
    """What a calendar app shows under the event: what to read, who leads, where to join."""
    parts = []
    sources = list(session.sources.all())
    if sources:
        reading = "\n".join(
            f"- {source.title}: {site_url(source.get_absolute_url())}" for source in sources
        )
        parts.append(f"Read:\n{reading}")
    if session.facilitator:
        parts.append(f"Facilitator: {session.facilitator.public_name}")
    if session.meeting_url:
        parts.append(f"Meeting link: {session.meeting_url}")
    if session.agenda:
        parts.append(session.agenda)
    parts.append(f"The session: {session_url}")
    return "\n\n".join(parts)
