internal import CFFmpeg

/// A 4:2:0 picture turned left for right, in place: the booth's live mirror under a branding
/// frame, so that the frame blended on afterwards reads as it will be recorded while the guest's
/// own picture stays a mirror (the page then shows the picture as it comes).
enum PictureMirror {
    static func flip(_ picture: UnsafeMutablePointer<AVFrame>) {
        let d = picture.pointee.data, l = picture.pointee.linesize
        let width = Int(picture.pointee.width), height = Int(picture.pointee.height)
        guard let py = d.0, let pu = d.1, let pv = d.2 else { return }
        flip(py, stride: Int(l.0), width: width, height: height)
        flip(pu, stride: Int(l.1), width: (width + 1) / 2, height: (height + 1) / 2)
        flip(pv, stride: Int(l.2), width: (width + 1) / 2, height: (height + 1) / 2)
    }

    private static func flip(_ plane: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) {
        for row in 0..<height {
            var (left, right) = (plane + row * stride, plane + row * stride + width - 1)
            while left < right {
                (left.pointee, right.pointee) = (right.pointee, left.pointee)
                left += 1
                right -= 1
            }
        }
    }
}
