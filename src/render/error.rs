//! The errors of rendering: only rasterising can fail (image too large, PNG encoding); building
//! scenes and writing SVG are infallible.

use thiserror::Error;

/// Why a scene could not be rendered.
#[derive(Debug, Error)]
pub enum RenderError {
    /// The image would exceed [`MAX_IMAGE_SIDE`](super::MAX_IMAGE_SIDE) pixels on a side.
    #[error("image of {width} x {height} px exceeds the limit of {max} px a side")]
    ImageTooLarge {
        /// Requested width in pixels (scene width rounded up, saturating).
        width: u64,
        /// Requested height in pixels (scene height rounded up, saturating).
        height: u64,
        /// The limit that was exceeded.
        max: u32,
    },
    /// The PNG encoder failed.
    #[error("PNG encoding failed")]
    Encode(#[source] Box<dyn std::error::Error + Send + Sync>),
}
