"""Who may do what: the roles, the one policy, and the page and panel hooks that ask it."""
