# bench: sources and tests of this component
