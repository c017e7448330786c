# src/coll: sources and tests of this component
