from django.apps import AppConfig


class ProposalsConfig(AppConfig):
    name = "proposals"
    verbose_name = "Proposals"

    def ready(self) -> None:
        from readinglist import pagecache

        from .models import Proposal

        # A proposal shows on its proposer's pages only: another reader's cached pages stay.
        pagecache.register(Proposal, scope="reader", owner="proposer")
        pagecache.exempt(
            Proposal.topics.through,
            reason="a proposal's topics show on its own pages, which the page cache never keeps",
        )
        pagecache.exempt(
            self.get_model("Decision"),
            reason="decisions show on the decision log and their proposal's pages, which the "
            "page cache never keeps; an accepted source reaches pages through Source",
        )
        pagecache.exempt(
            self.get_model("MaintainerAlert"),
            reason="a maintainer's alert choice shows on the alerts page only, never cached",
        )
