"""The dashboard's baseline: Wagtail's own admin dashboard without the project's panels.

Wagtail 8's HomeView with the panels its `get_panels` lists before the
`construct_homepage_panels` hook runs (and without running the hook), served by the same
server, under the admin's URL prefix so the same middleware (CSP included) applies.
"""

from wagtail.admin.auth import require_admin_access
from wagtail.admin.views.home import (
    HomeView,
    LockedPagesPanel,
    RecentEditsPanel,
    UserObjectsInWorkflowModerationPanel,
    WorkflowObjectsToModeratePanel,
)


class StockDashboardView(HomeView):
    def get_panels(self):
        return [
            WorkflowObjectsToModeratePanel(),
            UserObjectsInWorkflowModerationPanel(),
            RecentEditsPanel(),
            LockedPagesPanel(),
        ]


stock_dashboard = require_admin_access(StockDashboardView.as_view())
