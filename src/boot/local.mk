# src/boot: sources and tests of this component
