// Minimal stand-in for System.Collections.Immutable.ImmutableArray<T> (NuGet package not reachable here).
// Same shape as the real type for what Edgar uses: a readonly struct wrapping a T[].
using System.Collections;
using System.Collections.Generic;
namespace System.Collections.Immutable
{
    public static class ImmutableArray
    {
        public static ImmutableArray<T> CreateRange<T>(IEnumerable<T> items) { return new ImmutableArray<T>(new List<T>(items).ToArray()); }
        public static ImmutableArray<T> Create<T>(params T[] items) { return new ImmutableArray<T>((T[])items.Clone()); }
        public static ImmutableArray<T> ToImmutableArray<T>(this IEnumerable<T> items) { return CreateRange(items); }
    }
    public struct ImmutableArray<T> : IReadOnlyList<T>, IList<T>
    {
        internal readonly T[] array;
        internal ImmutableArray(T[] a) { array = a; }
        public static readonly ImmutableArray<T> Empty = new ImmutableArray<T>(new T[0]);
        public int Length { get { return array.Length; } }
        public bool IsEmpty { get { return array.Length == 0; } }
        public bool IsDefault { get { return array == null; } }
        public T this[int index] { get { return array[index]; } }
        T IList<T>.this[int index] { get { return array[index]; } set { throw new NotSupportedException(); } }
        int IReadOnlyCollection<T>.Count { get { return array.Length; } }
        int ICollection<T>.Count { get { return array.Length; } }
        bool ICollection<T>.IsReadOnly { get { return true; } }
        public int IndexOf(T item) { return Array.IndexOf(array, item); }
        public bool Contains(T item) { return Array.IndexOf(array, item) >= 0; }
        public void CopyTo(T[] dest, int index) { array.CopyTo(dest, index); }
        void IList<T>.Insert(int i, T item) { throw new NotSupportedException(); }
        void IList<T>.RemoveAt(int i) { throw new NotSupportedException(); }
        void ICollection<T>.Add(T item) { throw new NotSupportedException(); }
        void ICollection<T>.Clear() { throw new NotSupportedException(); }
        bool ICollection<T>.Remove(T item) { throw new NotSupportedException(); }
        public Enumerator GetEnumerator() { return new Enumerator(array); }
        IEnumerator<T> IEnumerable<T>.GetEnumerator() { return ((IEnumerable<T>)array).GetEnumerator(); }
        IEnumerator IEnumerable.GetEnumerator() { return array.GetEnumerator(); }
        public struct Enumerator
        {
            private readonly T[] a; private int i;
            internal Enumerator(T[] a) { this.a = a; i = -1; }
            public T Current { get { return a[i]; } }
            public bool MoveNext() { return ++i < a.Length; }
        }
    }
}
