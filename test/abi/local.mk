# test/abi: sources and tests of this component
