a.o b.o: x.h

y.o: \
  /usr/include/stdio.h /abs/p:q.h
