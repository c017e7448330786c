# npb-harness: builds, runs and verifies a user's NPB tree
