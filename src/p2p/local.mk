# src/p2p: sources and tests of this component
