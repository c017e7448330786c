# test/unit: sources and tests of this component
