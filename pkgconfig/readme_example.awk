# Prints README.md's C example: the ```c block after the
# "<!-- pkgconfig/consumer.c -->" marker (check_consumer.sh checks that it is
# consumer.c; scripts/package-check.sh builds it against the installed package).
/<!-- pkgconfig\/consumer.c -->/ { armed = 1; next }
armed && /^```c$/ { inside = 1; next }
inside && /^```$/ { exit }
inside { print }
