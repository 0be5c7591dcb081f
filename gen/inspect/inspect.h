/* inspect.h -- finding the GPU images in a file, for `cugen inspect`.
 *
 * Owns: which parts of a file hold GPU images (the fatbin sections of a
 * host ELF file, a whole cubin, a whole fatbin, each member of an ar
 * archive) and the order they are listed in.
 */
#ifndef CUGEN_INSPECT_H
#define CUGEN_INSPECT_H

#include <glib.h>

#include "fatbin.h"

typedef struct {
	char *member;	 /* archive member, or NULL */
	char *section;	 /* ELF section, or NULL for a bare fatbin or cubin */
	const char *where; /* section, or "fatbin" / "cubin" */
	guint index;	 /* 1-based, within its section (or whole file) */
	FatbinImage *img;
} InspectImage;

void inspect_image_free(InspectImage *im);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(InspectImage, inspect_image_free)

/* Append to images (InspectImage *, owned by the array) the images in one
 * file's contents, in file, member, section and image order. Each problem
 * is appended to errors as a GError ("error: [member(M): ][SECTION: ]
 * WHAT"), and the rest of the file is still read where possible. Returns
 * FALSE if any error was added. The images point into data. */
gboolean inspect_data(const guint8 *data, gsize len, GPtrArray *images,
		      GPtrArray *errors);

#endif
