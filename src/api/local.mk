# src/api: sources and tests of this component
