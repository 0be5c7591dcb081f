out.o: a\ b.h c$$d.h \
 e\#f.h \
 g\\h.h
x y: z w
