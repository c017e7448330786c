# test/fuzz: libFuzzer targets, built with clang (FUZZ_CC) outside the normal
# build. `make check-fuzz` builds each target with ASan + UBSan and runs it
# for FUZZ_SECONDS (default 60); any crash, sanitizer report or hang fails it.
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -D_GNU_SOURCE -I$(top_srcdir)/src
EXTRA_DIST += test/fuzz/fuzz_tcp_parse.c test/fuzz/tcp_parse.dict
CLEANFILES += test/fuzz/fuzz_tcp_parse

test/fuzz/fuzz_tcp_parse: $(top_srcdir)/test/fuzz/fuzz_tcp_parse.c \
		$(top_srcdir)/src/transport/tcp/tcp_parse.c $(top_srcdir)/src/transport/tcp/tcp_parse.h \
		$(top_srcdir)/src/transport/tcp/tcp_wire.h
	@mkdir -p test/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(top_srcdir)/test/fuzz/fuzz_tcp_parse.c \
		$(top_srcdir)/src/transport/tcp/tcp_parse.c

check-fuzz: test/fuzz/fuzz_tcp_parse
	rm -rf test/fuzz/corpus && mkdir -p test/fuzz/corpus
	./test/fuzz/fuzz_tcp_parse -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-dict=$(top_srcdir)/test/fuzz/tcp_parse.dict -print_final_stats=1 test/fuzz/corpus
	rm -rf test/fuzz/corpus
.PHONY: check-fuzz
