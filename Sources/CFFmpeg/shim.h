// FFmpeg headers plus constants for the function-like macros Swift does not import
// (AVERROR(...), AV_NOPTS_VALUE), and the FFmpeg functions recorder calls, bound on first use.
// Owned by the MediaEncoder module only.
//
// FFmpeg is opened with dlopen when a shot needs it, not linked: Debian's libavcodec brings ~130
// codec libraries whose loading cost every command 37 ms, `post` and `outbox` included. Swift calls
// the `cff_` wrappers below; calling an FFmpeg function directly fails at link time, by design.
#ifndef RECORDER_CFFMPEG_SHIM_H
#define RECORDER_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/imgutils.h>
#include <libavutil/error.h>
#include <libavutil/dict.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <errno.h>
#include <sys/prctl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static const int CFF_AVERROR_EOF = AVERROR_EOF;
static const int CFF_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int CFF_AVERROR_ENOSPC = AVERROR(ENOSPC);
static const int CFF_AVERROR_EACCES = AVERROR(EACCES);
static const int64_t CFF_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
static const int CFF_AVFMT_GLOBALHEADER = AVFMT_GLOBALHEADER;
static const int CFF_AV_CODEC_FLAG_GLOBAL_HEADER = AV_CODEC_FLAG_GLOBAL_HEADER;
static const int CFF_AV_PKT_FLAG_KEY = AV_PKT_FLAG_KEY;
static const int CFF_AV_PKT_FLAG_CORRUPT = AV_PKT_FLAG_CORRUPT;
static const int CFF_AVIO_FLAG_WRITE = AVIO_FLAG_WRITE;
static const int CFF_SWS_BILINEAR = SWS_BILINEAR;
static const int CFF_SWS_BICUBIC = SWS_BICUBIC;
static const int CFF_AV_CODEC_FLAG_QSCALE = AV_CODEC_FLAG_QSCALE;
static const int CFF_FF_QP2LAMBDA = FF_QP2LAMBDA;

/// Returns the errno value an AVERROR code carries, or 0 when it is not an errno.

enum { CFF_AVUTIL, CFF_AVCODEC, CFF_AVFORMAT, CFF_SWSCALE, CFF_SWRESAMPLE, CFF_LIBRARY_COUNT,
       // Opened apart (`cff_load_filters`), only by the highlight reel: a shot does not need it.
       CFF_AVFILTER = CFF_LIBRARY_COUNT, CFF_ALL_LIBRARIES };

/// The soname of each library, from the headers we compiled against (FFmpeg 5.1: 57, 59, 59, 6, 4).
static inline const char *cff_soname(int library) {
    switch (library) {
    case CFF_AVUTIL: return "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR);
    case CFF_AVCODEC: return "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR);
    case CFF_AVFORMAT: return "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR);
    case CFF_SWSCALE: return "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR);
    case CFF_AVFILTER: return "libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR);
    default: return "libswresample.so." AV_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR);
    }
}

/// Opens `library` once (per translation unit; dlopen counts references); NULL when it cannot.
static inline void *cff_library(int library) {
    static void *handles[CFF_ALL_LIBRARIES];
    void *handle = __atomic_load_n(&handles[library], __ATOMIC_ACQUIRE);
    if (!handle) {
        handle = dlopen(cff_soname(library), RTLD_NOW | RTLD_LOCAL);
        if (handle) __atomic_store_n(&handles[library], handle, __ATOMIC_RELEASE);
    }
    return handle;
}

/// Opens every FFmpeg library: NULL when all are there, else the loader's reason.
static inline const char *cff_load(void) {
    for (int library = 0; library < CFF_LIBRARY_COUNT; library++) {
        if (!cff_library(library)) return dlerror();
    }
    return NULL;
}

/// Opens libavfilter too (after `cff_load`): NULL when it is there, else the loader's reason.
static inline const char *cff_load_filters(void) {
    return cff_library(CFF_AVFILTER) ? NULL : dlerror();
}

/// The address of `name` in `library`. Only reached after `cff_load` succeeded; a symbol missing
/// from the very soname the headers describe is a broken installation, and calling on is not safe.
static inline void *cff_resolve(int library, const char *name) {
    void *handle = cff_library(library);
    void *function = handle ? dlsym(handle, name) : NULL;
    if (!function) {
        fprintf(stderr, "recorder: %s has no %s (%s); reinstall FFmpeg's libraries\n", cff_soname(library), name, dlerror());
        abort();
    }
    return function;
}

/// The function `name` of `library`, typed from its declaration, resolved once per call site.
#define CFF_FN(library, name) ({ \
    static __typeof__(&name) cached; \
    __typeof__(&name) function = __atomic_load_n(&cached, __ATOMIC_ACQUIRE); \
    if (!function) { \
        function = (__typeof__(&name))cff_resolve(library, #name); \
        __atomic_store_n(&cached, function, __ATOMIC_RELEASE); \
    } \
    function; })

// libavutil
static inline AVFrame *cff_av_frame_alloc(void) { return CFF_FN(CFF_AVUTIL, av_frame_alloc)(); }
static inline void cff_av_frame_free(AVFrame **frame) { CFF_FN(CFF_AVUTIL, av_frame_free)(frame); }
static inline int cff_av_frame_get_buffer(AVFrame *frame, int align) { return CFF_FN(CFF_AVUTIL, av_frame_get_buffer)(frame, align); }
static inline int cff_av_frame_make_writable(AVFrame *frame) { return CFF_FN(CFF_AVUTIL, av_frame_make_writable)(frame); }
static inline void cff_av_frame_unref(AVFrame *frame) { CFF_FN(CFF_AVUTIL, av_frame_unref)(frame); }
static inline AVFrame *cff_av_frame_clone(const AVFrame *frame) { return CFF_FN(CFF_AVUTIL, av_frame_clone)(frame); }
static inline int cff_av_opt_set(void *object, const char *name, const char *value, int flags) { return CFF_FN(CFF_AVUTIL, av_opt_set)(object, name, value, flags); }
static inline void *cff_av_mallocz(size_t size) { return CFF_FN(CFF_AVUTIL, av_mallocz)(size); }
static inline int cff_strerror(int code, char *buffer, size_t size) { return CFF_FN(CFF_AVUTIL, av_strerror)(code, buffer, size); }
static inline void cff_av_log_set_level(int level) { CFF_FN(CFF_AVUTIL, av_log_set_level)(level); }
static inline const char *cff_av_get_pix_fmt_name(enum AVPixelFormat format) { return CFF_FN(CFF_AVUTIL, av_get_pix_fmt_name)(format); }
static inline AVRational cff_av_d2q(double value, int max) { return CFF_FN(CFF_AVUTIL, av_d2q)(value, max); }
static inline int64_t cff_av_rescale_q(int64_t value, AVRational from, AVRational to) { return CFF_FN(CFF_AVUTIL, av_rescale_q)(value, from, to); }
static inline int cff_av_opt_set_double(void *object, const char *name, double value, int flags) { return CFF_FN(CFF_AVUTIL, av_opt_set_double)(object, name, value, flags); }
static inline void cff_av_channel_layout_default(AVChannelLayout *layout, int channels) { CFF_FN(CFF_AVUTIL, av_channel_layout_default)(layout, channels); }
static inline AVAudioFifo *cff_av_audio_fifo_alloc(enum AVSampleFormat format, int channels, int samples) { return CFF_FN(CFF_AVUTIL, av_audio_fifo_alloc)(format, channels, samples); }
static inline void cff_av_audio_fifo_free(AVAudioFifo *fifo) { CFF_FN(CFF_AVUTIL, av_audio_fifo_free)(fifo); }
static inline int cff_av_audio_fifo_write(AVAudioFifo *fifo, void **data, int samples) { return CFF_FN(CFF_AVUTIL, av_audio_fifo_write)(fifo, data, samples); }
static inline int cff_av_audio_fifo_read(AVAudioFifo *fifo, void **data, int samples) { return CFF_FN(CFF_AVUTIL, av_audio_fifo_read)(fifo, data, samples); }
static inline int cff_av_audio_fifo_size(AVAudioFifo *fifo) { return CFF_FN(CFF_AVUTIL, av_audio_fifo_size)(fifo); }
static inline int cff_av_samples_alloc(uint8_t **data, int *linesize, int channels, int samples, enum AVSampleFormat format, int align) { return CFF_FN(CFF_AVUTIL, av_samples_alloc)(data, linesize, channels, samples, format, align); }
static inline void cff_av_freep(void *pointer) { CFF_FN(CFF_AVUTIL, av_freep)(pointer); }

// libavcodec
static inline AVPacket *cff_av_packet_alloc(void) { return CFF_FN(CFF_AVCODEC, av_packet_alloc)(); }
static inline void cff_av_packet_free(AVPacket **packet) { CFF_FN(CFF_AVCODEC, av_packet_free)(packet); }
static inline void cff_av_packet_unref(AVPacket *packet) { CFF_FN(CFF_AVCODEC, av_packet_unref)(packet); }
static inline void cff_av_packet_move_ref(AVPacket *to, AVPacket *from) { CFF_FN(CFF_AVCODEC, av_packet_move_ref)(to, from); }
static inline int cff_av_packet_ref(AVPacket *to, const AVPacket *from) { return CFF_FN(CFF_AVCODEC, av_packet_ref)(to, from); }
static inline int cff_av_new_packet(AVPacket *packet, int size) { return CFF_FN(CFF_AVCODEC, av_new_packet)(packet, size); }
static inline int cff_av_packet_copy_props(AVPacket *to, const AVPacket *from) { return CFF_FN(CFF_AVCODEC, av_packet_copy_props)(to, from); }
static inline void cff_avcodec_flush_buffers(AVCodecContext *context) { CFF_FN(CFF_AVCODEC, avcodec_flush_buffers)(context); }
static inline void cff_av_packet_rescale_ts(AVPacket *packet, AVRational from, AVRational to) { CFF_FN(CFF_AVCODEC, av_packet_rescale_ts)(packet, from, to); }
static inline AVCodecContext *cff_avcodec_alloc_context3(const AVCodec *codec) { return CFF_FN(CFF_AVCODEC, avcodec_alloc_context3)(codec); }
static inline void cff_avcodec_free_context(AVCodecContext **context) { CFF_FN(CFF_AVCODEC, avcodec_free_context)(context); }
static inline int cff_avcodec_open2(AVCodecContext *context, const AVCodec *codec, AVDictionary **options) { return CFF_FN(CFF_AVCODEC, avcodec_open2)(context, codec, options); }
static inline int cff_avcodec_send_frame(AVCodecContext *context, const AVFrame *frame) { return CFF_FN(CFF_AVCODEC, avcodec_send_frame)(context, frame); }
static inline int cff_avcodec_receive_packet(AVCodecContext *context, AVPacket *packet) { return CFF_FN(CFF_AVCODEC, avcodec_receive_packet)(context, packet); }
static inline int cff_avcodec_send_packet(AVCodecContext *context, const AVPacket *packet) { return CFF_FN(CFF_AVCODEC, avcodec_send_packet)(context, packet); }
static inline int cff_avcodec_receive_frame(AVCodecContext *context, AVFrame *frame) { return CFF_FN(CFF_AVCODEC, avcodec_receive_frame)(context, frame); }
static inline int cff_avcodec_parameters_from_context(AVCodecParameters *parameters, const AVCodecContext *context) { return CFF_FN(CFF_AVCODEC, avcodec_parameters_from_context)(parameters, context); }
static inline int cff_avcodec_parameters_to_context(AVCodecContext *context, const AVCodecParameters *parameters) { return CFF_FN(CFF_AVCODEC, avcodec_parameters_to_context)(context, parameters); }
static inline int cff_avcodec_parameters_copy(AVCodecParameters *to, const AVCodecParameters *from) { return CFF_FN(CFF_AVCODEC, avcodec_parameters_copy)(to, from); }
static inline const AVCodec *cff_avcodec_find_encoder_by_name(const char *name) { return CFF_FN(CFF_AVCODEC, avcodec_find_encoder_by_name)(name); }
static inline const AVCodec *cff_avcodec_find_decoder(enum AVCodecID id) { return CFF_FN(CFF_AVCODEC, avcodec_find_decoder)(id); }
static inline const char *cff_avcodec_get_name(enum AVCodecID id) { return CFF_FN(CFF_AVCODEC, avcodec_get_name)(id); }

// libavformat
static inline int cff_avformat_open_input(AVFormatContext **context, const char *url, const AVInputFormat *format, AVDictionary **options) { return CFF_FN(CFF_AVFORMAT, avformat_open_input)(context, url, format, options); }
static inline void cff_avformat_close_input(AVFormatContext **context) { CFF_FN(CFF_AVFORMAT, avformat_close_input)(context); }
static inline void cff_avformat_free_context(AVFormatContext *context) { CFF_FN(CFF_AVFORMAT, avformat_free_context)(context); }
static inline int cff_av_read_frame(AVFormatContext *context, AVPacket *packet) { return CFF_FN(CFF_AVFORMAT, av_read_frame)(context, packet); }
static inline int cff_avformat_write_header(AVFormatContext *context, AVDictionary **options) { return CFF_FN(CFF_AVFORMAT, avformat_write_header)(context, options); }
static inline AVStream *cff_avformat_new_stream(AVFormatContext *context, const AVCodec *codec) { return CFF_FN(CFF_AVFORMAT, avformat_new_stream)(context, codec); }
static inline int cff_avformat_alloc_output_context2(AVFormatContext **context, const AVOutputFormat *format, const char *name, const char *path) { return CFF_FN(CFF_AVFORMAT, avformat_alloc_output_context2)(context, format, name, path); }
static inline int cff_av_write_trailer(AVFormatContext *context) { return CFF_FN(CFF_AVFORMAT, av_write_trailer)(context); }
static inline int cff_av_write_frame(AVFormatContext *context, AVPacket *packet) { return CFF_FN(CFF_AVFORMAT, av_write_frame)(context, packet); }
static inline int cff_av_interleaved_write_frame(AVFormatContext *context, AVPacket *packet) { return CFF_FN(CFF_AVFORMAT, av_interleaved_write_frame)(context, packet); }
static inline int cff_avio_open(AVIOContext **context, const char *url, int flags) { return CFF_FN(CFF_AVFORMAT, avio_open)(context, url, flags); }
static inline int cff_avio_closep(AVIOContext **context) { return CFF_FN(CFF_AVFORMAT, avio_closep)(context); }
static inline const AVInputFormat *cff_av_find_input_format(const char *name) { return CFF_FN(CFF_AVFORMAT, av_find_input_format)(name); }
static inline int cff_av_find_best_stream(AVFormatContext *context, enum AVMediaType type, int wanted, int related, const AVCodec **decoder, int flags) { return CFF_FN(CFF_AVFORMAT, av_find_best_stream)(context, type, wanted, related, decoder, flags); }

// libswscale
static inline struct SwsContext *cff_sws_getCachedContext(struct SwsContext *context, int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param) { return CFF_FN(CFF_SWSCALE, sws_getCachedContext)(context, srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param); }
static inline int cff_sws_scale(struct SwsContext *context, const uint8_t *const source[], const int sourceStride[], int sliceY, int sliceH, uint8_t *const destination[], const int destinationStride[]) { return CFF_FN(CFF_SWSCALE, sws_scale)(context, source, sourceStride, sliceY, sliceH, destination, destinationStride); }
static inline void cff_sws_freeContext(struct SwsContext *context) { CFF_FN(CFF_SWSCALE, sws_freeContext)(context); }
/// Makes `context` write full-range YUV (JPEG's), keeping its other colour details.
static inline void cff_sws_set_full_range_output(struct SwsContext *context) {
    int *inverse, *table, srcRange, dstRange, brightness, contrast, saturation;
    if (CFF_FN(CFF_SWSCALE, sws_getColorspaceDetails)(context, &inverse, &srcRange, &table, &dstRange, &brightness, &contrast, &saturation) < 0) return;
    CFF_FN(CFF_SWSCALE, sws_setColorspaceDetails)(context, inverse, srcRange, table, 1, brightness, contrast, saturation);
}

// libswresample
static inline int cff_swr_alloc_set_opts2(struct SwrContext **context, const AVChannelLayout *outLayout, enum AVSampleFormat outFormat, int outRate, const AVChannelLayout *inLayout, enum AVSampleFormat inFormat, int inRate) { return CFF_FN(CFF_SWRESAMPLE, swr_alloc_set_opts2)(context, outLayout, outFormat, outRate, inLayout, inFormat, inRate, 0, NULL); }
static inline int cff_swr_init(struct SwrContext *context) { return CFF_FN(CFF_SWRESAMPLE, swr_init)(context); }
static inline void cff_swr_free(struct SwrContext **context) { CFF_FN(CFF_SWRESAMPLE, swr_free)(context); }
static inline int cff_swr_convert(struct SwrContext *context, uint8_t **out, int outCount, const uint8_t **in, int inCount) { return CFF_FN(CFF_SWRESAMPLE, swr_convert)(context, out, outCount, in, inCount); }
static inline int64_t cff_swr_next_pts(struct SwrContext *context, int64_t pts) { return CFF_FN(CFF_SWRESAMPLE, swr_next_pts)(context, pts); }
static inline int cff_swr_get_out_samples(struct SwrContext *context, int inSamples) { return CFF_FN(CFF_SWRESAMPLE, swr_get_out_samples)(context, inSamples); }

// libavutil's dictionaries (a filtered frame's metadata)
static inline AVDictionaryEntry *cff_av_dict_get(const AVDictionary *dictionary, const char *key, const AVDictionaryEntry *previous, int flags) { return CFF_FN(CFF_AVUTIL, av_dict_get)(dictionary, key, previous, flags); }

// libavfilter
static inline AVFilterGraph *cff_avfilter_graph_alloc(void) { return CFF_FN(CFF_AVFILTER, avfilter_graph_alloc)(); }
static inline void cff_avfilter_graph_free(AVFilterGraph **graph) { CFF_FN(CFF_AVFILTER, avfilter_graph_free)(graph); }
/// Parses a whole graph, sources and sinks included (no open inputs or outputs are left).
static inline int cff_avfilter_graph_parse_closed(AVFilterGraph *graph, const char *description) {
    AVFilterInOut *inputs = NULL, *outputs = NULL;
    int code = CFF_FN(CFF_AVFILTER, avfilter_graph_parse2)(graph, description, &inputs, &outputs);
    if (code >= 0 && (inputs || outputs)) code = AVERROR(EINVAL);
    CFF_FN(CFF_AVFILTER, avfilter_inout_free)(&inputs);
    CFF_FN(CFF_AVFILTER, avfilter_inout_free)(&outputs);
    return code;
}
static inline int cff_avfilter_graph_config(AVFilterGraph *graph) { return CFF_FN(CFF_AVFILTER, avfilter_graph_config)(graph, NULL); }
/// The graph's filter number `index`, and its kind's name ("buffersink", "abuffersink"...).
static inline AVFilterContext *cff_avfilter_graph_filter(AVFilterGraph *graph, unsigned index) { return index < graph->nb_filters ? graph->filters[index] : NULL; }
static inline const char *cff_avfilter_kind(const AVFilterContext *filter) { return filter->filter->name; }
static inline int cff_av_buffersink_get_frame(AVFilterContext *sink, AVFrame *frame) { return CFF_FN(CFF_AVFILTER, av_buffersink_get_frame)(sink, frame); }
static inline void cff_av_buffersink_set_frame_size(AVFilterContext *sink, unsigned samples) { CFF_FN(CFF_AVFILTER, av_buffersink_set_frame_size)(sink, samples); }
static inline AVRational cff_av_buffersink_get_time_base(const AVFilterContext *sink) { return CFF_FN(CFF_AVFILTER, av_buffersink_get_time_base)(sink); }

/// Opts the whole process out of transparent huge pages (prctl is variadic). x264 advises its
/// picture buffers into 2 MiB pages (madvise), which are zeroed and counted in full when touched.
static inline int cff_disable_transparent_huge_pages(void) { return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0); }

#endif
