// FFmpeg headers plus constants for the function-like macros Swift does not import
// (AVERROR(...), AV_NOPTS_VALUE). Owned by the MediaEncoder module only.
#ifndef RECORDER_CFFMPEG_SHIM_H
#define RECORDER_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/imgutils.h>
#include <libavutil/error.h>
#include <errno.h>
#include <sys/prctl.h>

static const int CFF_AVERROR_EOF = AVERROR_EOF;
static const int CFF_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int CFF_AVERROR_ENOSPC = AVERROR(ENOSPC);
static const int CFF_AVERROR_EACCES = AVERROR(EACCES);
static const int CFF_AVERROR_ENOENT = AVERROR(ENOENT);
static const int CFF_AVERROR_EIO = AVERROR(EIO);
static const int64_t CFF_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
static const int CFF_AVFMT_GLOBALHEADER = AVFMT_GLOBALHEADER;
static const int CFF_AV_CODEC_FLAG_GLOBAL_HEADER = AV_CODEC_FLAG_GLOBAL_HEADER;
static const int CFF_AV_PKT_FLAG_KEY = AV_PKT_FLAG_KEY;
static const int CFF_AVIO_FLAG_WRITE = AVIO_FLAG_WRITE;
static const int CFF_AVFMT_NOFILE = AVFMT_NOFILE;
static const int CFF_SWS_BILINEAR = SWS_BILINEAR;
static const int CFF_SWS_POINT = SWS_POINT;

/// Returns the errno value an AVERROR code carries, or 0 when it is not an errno.
static inline int cff_averror_errno(int code) { return (code < 0 && code > -4096) ? -code : 0; }
static inline int cff_strerror(int code, char *buf, size_t size) { return av_strerror(code, buf, size); }

/// Opts the whole process out of transparent huge pages (prctl is variadic). x264 advises its
/// picture buffers into 2 MiB pages (madvise), which are zeroed and counted in full when touched.
static inline int cff_disable_transparent_huge_pages(void) { return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0); }

#endif
