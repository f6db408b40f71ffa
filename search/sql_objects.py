"""PostgreSQL functions and triggers as data: rendered to install them, and compared with what
the database has installed."""

from dataclasses import dataclass

NEW_ROWS, OLD_ROWS = "NEW TABLE AS new_rows", "OLD TABLE AS old_rows"
BOTH_ROWS = f"{OLD_ROWS} {NEW_ROWS}"


@dataclass(frozen=True)
class Function:
    name: str
    arguments: str
    returns: str
    language: str
    body: str
    volatility: str = ""

    def sql(self) -> str:
        volatility = f" {self.volatility}" if self.volatility else ""
        return (
            f"CREATE OR REPLACE FUNCTION {self.name}({self.arguments}) RETURNS {self.returns}\n"
            f"LANGUAGE {self.language}{volatility} AS $$\n{self.body.strip()}\n$$;"
        )


@dataclass(frozen=True)
class Trigger:
    """An AFTER trigger; `function` is the trigger's own name when empty."""

    name: str
    table: str
    events: str
    function: str = ""
    referencing: str = ""
    level: str = "STATEMENT"

    def definition(self) -> str:
        """As pg_get_triggerdef() prints it, so the installed set can be compared."""
        referencing = f" REFERENCING {self.referencing}" if self.referencing else ""
        return (
            f"CREATE TRIGGER {self.name} AFTER {self.events} ON public.{self.table}{referencing} "
            f"FOR EACH {self.level} EXECUTE FUNCTION {self.function or self.name}()"
        )

    def sql(self) -> str:
        return f"DROP TRIGGER IF EXISTS {self.name} ON {self.table};\n{self.definition()};"
