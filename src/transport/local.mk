# src/transport: sources and tests of this component
