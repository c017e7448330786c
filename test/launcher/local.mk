# test/launcher: sources and tests of this component
