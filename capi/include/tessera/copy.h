/*
 * Being written (issue 3).
 */
#ifndef TESSERA_COPY_H_
#define TESSERA_COPY_H_

#include "tessera/export.h"

TESSERA_BEGIN_DECLS

TESSERA_END_DECLS

#endif /* TESSERA_COPY_H_ */
