#!/bin/sh
# bench/verbs/local-agent.sh: an mpirun --launch-agent that runs the
# command on this machine, whatever host it is given ("local-agent.sh HOST
# command words", as ssh is called). bench/verbs/run.sh starts the second
# rank of its one-sided runs this way, so that the two ranks of one machine
# are two nodes to the library and reach each other through the transport.
shift
exec sh -c "$*"
