"""Games defined only for the tests, to show the host needs nothing but the interface."""
