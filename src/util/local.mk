# src/util: sources and tests of this component
