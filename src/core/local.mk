# src/core: sources and tests of this component
