// libqrencode (Debian's libqrencode-dev 4.1): QR codes for the share links. Owned by the ShareCode
// module only.
#ifndef RECORDER_CQRENCODE_SHIM_H
#define RECORDER_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
