/*
 * Being written (issue 3).
 */
#ifndef TESSERA_PROTO_H_
#define TESSERA_PROTO_H_

#include "tessera/export.h"

TESSERA_BEGIN_DECLS

TESSERA_END_DECLS

#endif /* TESSERA_PROTO_H_ */
